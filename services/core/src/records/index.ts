export * from './kinds';
export * from './lifecycle';
export * from './messages';
export * from './projection';
export * from './export';
