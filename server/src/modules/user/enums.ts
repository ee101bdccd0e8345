import { defineEnum } from '../../rpc/wire.js';

/** User status, written by name (SPEC: enabled/disabled). */
export const UserStatus = defineEnum('UserStatus', { Enabled: 1, Disabled: 0 });
/** Gender as the original stores it (an int on the wire in the profile, by name in lists). */
export const Gender = defineEnum('Gender', { Unknown: 0, Male: 1, Female: 2 });
