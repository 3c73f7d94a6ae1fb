export * from './compile';
export * from './engine';
export * from './errors';
export * from './events';
export * from './feel';
export * from './iso';
export * from './model';
