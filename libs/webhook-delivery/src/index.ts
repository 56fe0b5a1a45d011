export * from './guarded-lookup';
export * from './signature';
export * from './webhook-sender';
