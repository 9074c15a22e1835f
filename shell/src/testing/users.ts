import type { UserInfo } from 'contracts';

/** The CellwiseHQ user of the operator-switch tests, as account/GetUserInfo answers it in `operator`. */
export const hqUserIn = (operator: { id: number; name: string }): UserInfo =>
  ({
    id: 11,
    firstname: 'Helena',
    lastname: 'Quaresma',
    email: 'hq@cellwise.local',
    role: 'CellwiseHQ',
    operator,
    projects: ['Operations'],
    avatar: null,
  }) as UserInfo;
