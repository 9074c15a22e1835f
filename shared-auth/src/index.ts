export * from './policy';
export * from './session';
export * from './apiClient';
export * from './sessionActions';
export * from './hub';
export * from './jobProgress';
export * from './alarmsChanged';
export * from './pageScope';
