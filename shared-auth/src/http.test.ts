import { ApiError, HttpClient, queryOf, type ApiResponse, type ApiRequest } from './http';
import { FakeXhr, installFakeXhr } from './testing/fakeXhr';

installFakeXhr();

describe('query parameters', () => {
  test('leave out null and undefined, write dates in ISO form and arrays as repeated keys, encode the rest', () => {
    expect(queryOf(undefined)).toBe('');
    expect(queryOf({ a: undefined, b: null })).toBe('');
    expect(queryOf({ page: 2, filters: '{"siteId":"LX 1&2"}', on: true, at: new Date('2026-03-05T10:00:00Z'), ids: [1, 2] })).toBe(
      '?page=2&filters=%7B%22siteId%22%3A%22LX+1%262%22%7D&on=true&at=2026-03-05T10%3A00%3A00.000Z&ids=1&ids=2',
    );
  });
});

describe('HttpClient', () => {
  const client = () => new HttpClient('/api');

  test('paths join the base whether or not they start with a slash; a URL with a scheme leaves it', async () => {
    const http = client();
    void http.get('Tracker/GetTracker', { params: { page: 1 } });
    expect([FakeXhr.last.method, FakeXhr.last.url]).toEqual(['GET', '/api/Tracker/GetTracker?page=1']);
    void http.get('/account/GetUserInfo');
    expect(FakeXhr.last.url).toBe('/api/account/GetUserInfo');
    void http.get('https://bi.example/embed');
    expect(FakeXhr.last.url).toBe('https://bi.example/embed');
  });

  test('an object body goes as JSON, form data as it is, and a delete may carry a body', async () => {
    const http = client();
    void http.post('Operators/AddOperator', { name: 'Nordlink' });
    expect(FakeXhr.last.body).toBe('{"name":"Nordlink"}');
    expect(FakeXhr.last.headers['Content-Type']).toBe('application/json');
    const form = new FormData();
    void http.post('File/Upload', form);
    expect(FakeXhr.last.body).toBe(form);
    expect(FakeXhr.last.headers['Content-Type']).toBeUndefined();
    void http.delete('Users/DeleteUser', { data: { userId: 4 } });
    expect([FakeXhr.last.method, FakeXhr.last.body]).toEqual(['DELETE', '{"userId":4}']);
    void http.get('x');
    expect(FakeXhr.last.body).toBeNull();
  });

  test('answers: JSON is parsed, text that is not JSON stays text, headers come in lower case', async () => {
    const http = client();
    const json = http.get<{ rows: number[] }>('a');
    FakeXhr.last.reply(200, '{"rows":[1,2]}', 'Content-Type: application/json\r\nContent-Disposition: attachment; filename="a.xlsx"\r\n');
    const answer = await json;
    expect(answer.data).toEqual({ rows: [1, 2] });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-disposition']).toBe('attachment; filename="a.xlsx"');
    const text = http.get('b');
    FakeXhr.last.reply(200, 'plain words', 'Content-Type: text/plain\r\n');
    expect((await text).data).toBe('plain words');
    const empty = http.post('c');
    FakeXhr.last.reply(204, '', '');
    expect((await empty).data).toBe('');
  });

  test('a blob is asked for as a blob and handed over as it came', async () => {
    const http = client();
    const download = http.get<Blob>('File/Download', { responseType: 'blob' });
    expect(FakeXhr.last.responseType).toBe('blob');
    const blob = new Blob(['PK']);
    FakeXhr.last.reply(200, blob, 'Content-Type: application/zip\r\n');
    expect((await download).data).toBe(blob);
  });

  test('a status outside 2xx rejects with an ApiError holding the answer; a network failure with none', async () => {
    const http = client();
    const refused = http.post('Operators/AddOperator', { name: '' });
    FakeXhr.last.reply(400, '{"message":"Name is required."}');
    const error = await refused.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).response).toMatchObject({ status: 400, data: { message: 'Name is required.' } });
    expect((error as ApiError).config.url).toBe('Operators/AddOperator');
    const down = http.get('a');
    FakeXhr.last.onerror?.();
    const failure = (await down.catch((e: unknown) => e)) as ApiError;
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure.response).toBeUndefined();
  });

  test('upload progress is reported with its fraction', async () => {
    const http = client();
    const seen: unknown[] = [];
    void http.post('File/Upload', new FormData(), { onUploadProgress: (event) => seen.push(event) });
    FakeXhr.last.upload.onprogress?.({ loaded: 50, total: 200, lengthComputable: true });
    FakeXhr.last.upload.onprogress?.({ loaded: 70, total: 0, lengthComputable: false });
    expect(seen).toEqual([
      { loaded: 50, total: 200, progress: 0.25 },
      { loaded: 70, total: undefined, progress: undefined },
    ]);
  });

  test('request hooks shape what is sent; response hooks see answers and failures in the order added', async () => {
    const http = client();
    const order: string[] = [];
    http.interceptors.request.use((request: ApiRequest) => {
      request.headers.Authorization = 'Bearer t';
      return request;
    });
    http.interceptors.response.use(
      (response: ApiResponse) => {
        order.push(`answer ${response.status}`);
        return response;
      },
      (error: unknown) => {
        order.push(`failure ${(error as ApiError).response?.status}`);
        return Promise.reject(error);
      },
    );
    const ok = http.get('a', { skipLoading: true });
    expect(FakeXhr.last.headers.Authorization).toBe('Bearer t');
    FakeXhr.last.reply(200, '{}');
    expect((await ok).config.skipLoading).toBe(true);
    const refused = http.get('b');
    FakeXhr.last.reply(500, '{}');
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    expect(order).toEqual(['answer 200', 'failure 500']);
  });
});
