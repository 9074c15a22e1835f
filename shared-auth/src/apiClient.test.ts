import { ApiError, apiRefusal, errorMessage, errorRoute } from './apiClient';

const httpError = (status: number, data: unknown) => apiRefusal(status, data);

describe('error mapping (specification §8)', () => {
  test('routes by status', () => {
    expect(errorRoute(401)).toBe('/errors/error-401');
    expect(errorRoute(404)).toBe('/errors/error-404');
    expect(errorRoute(500)).toBe('/errors/error-500');
    expect(errorRoute(598)).toBe('/errors/error-500');
    expect(errorRoute(599)).toBeNull();
    expect(errorRoute(400)).toBeNull();
  });

  test('message: string body, else message field, else the fallback; no response is a network error', () => {
    expect(errorMessage(httpError(400, 'Plain text'))).toBe('Plain text');
    expect(errorMessage(httpError(409, { message: 'Operator has 2 users' }))).toBe('Operator has 2 users');
    expect(errorMessage(httpError(400, { other: 1 }))).toBe('Something went wrong!');
    expect(errorMessage(new ApiError('Network Error', { method: 'GET', url: 'x', headers: {} }))).toBe('Network error!');
  });
});
