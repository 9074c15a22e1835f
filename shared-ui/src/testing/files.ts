/** A file of any reported size without allocating it: the checks only read `size` and `name`. */
export function fakeFile(name: string, size: number, type = 'application/octet-stream'): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}
