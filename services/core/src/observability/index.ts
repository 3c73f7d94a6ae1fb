export * from './access';
export * from './jobs';
export * from './log';
export * from './metrics';
export * from './request-context';
