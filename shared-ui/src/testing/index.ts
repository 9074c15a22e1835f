// Test-only helpers of every package's tests, reached as `shared-ui/testing` (never from the package's runtime entry).
export * from './manifestSuite';
export * from './pageKit';
export * from './runFindings';
