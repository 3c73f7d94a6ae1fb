/**
 * Every projection and decider the platform runs is registered by importing its module
 * here, so the worker, the API and `npm run projections:rebuild` see the same set.
 * (Feature modules add their imports as they arrive.)
 */
export {};
