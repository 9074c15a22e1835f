import type { Principal } from 'shared-auth/policy';
import { isPng } from '../files/content';
import { mergeMemberships, scopeFor, seesUser, userDenial } from './scope';

const principal = (role: Principal['role']): Principal => ({ authenticated: true, role, operatorId: 1, projects: ['Operations'] });
const admin = scopeFor(principal('Administrator'), []);
const manager = scopeFor(principal('Manager'), [1, 2]);

describe('management scope', () => {
  test('an Administrator sees and changes every user', () => {
    expect(seesUser(admin, [])).toBe(true);
    expect(userDenial(admin, { role: 'Administrator', operatorIds: [9] }, 'remove')).toBeNull();
  });

  test('a Manager sees users sharing an operator, never changes an Administrator, removes only their own users', () => {
    expect(seesUser(manager, [3])).toBe(false);
    expect(seesUser(manager, [])).toBe(false);
    expect(userDenial(manager, { role: 'CellwiseOS', operatorIds: [3] }, 'edit')).toBe('hidden');
    expect(userDenial(manager, { role: 'Administrator', operatorIds: [1] }, 'edit')).toBe('administrator');
    expect(userDenial(manager, { role: 'Manager', operatorIds: [1] }, 'edit')).toBeNull();
    expect(userDenial(manager, { role: 'Client', operatorIds: [1, 3] }, 'edit')).toBeNull();
    expect(userDenial(manager, { role: 'Client', operatorIds: [1, 3] }, 'remove')).toBe('foreign-operators');
    expect(userDenial(manager, { role: 'Client', operatorIds: [1, 2] }, 'remove')).toBeNull();
  });

  test("a Manager's edit keeps memberships outside their operators; an Administrator's replaces them", () => {
    const operatorOfProject = new Map([
      [10, 1],
      [30, 3],
    ]);
    expect(mergeMemberships(manager, [10, 30], [], (id) => operatorOfProject.get(id)).sort()).toEqual([30]);
    expect(mergeMemberships(manager, [1, 3], [2, 2], (id) => id).sort()).toEqual([2, 3]);
    expect(mergeMemberships(admin, [1, 3], [2], (id) => id)).toEqual([2]);
  });
});

describe('isPng', () => {
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  test('a PNG by its signature and header chunk, not by anything else', () => {
    expect(isPng(png)).toBe(true);
    expect(isPng(png.subarray(0, 12))).toBe(false);
    expect(isPng(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), png.subarray(4)]))).toBe(false);
    expect(isPng(Buffer.from('\x89PNG\r\n\x1a\n but then text follows, long enough to pass the length check', 'latin1'))).toBe(false);
    expect(isPng(Buffer.alloc(0))).toBe(false);
  });
});
