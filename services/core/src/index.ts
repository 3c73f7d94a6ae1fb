export * from './config';
export * from './errors';
export * from './i18n';
export * from './ids';
export * from './time';
export * from './platform';
