export * from './operations.ts';
export * from './params.ts';
export * from './types.ts';
export * from './live.ts';
export * from './errors.ts';
export * from './push.ts';
export * from './raw.ts';
