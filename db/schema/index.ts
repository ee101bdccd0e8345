/** Every table, for drizzle-kit and for typed queries (`db.query.*`). */
export * from './api-credential.js';
export * from './assignment.js';
export * from './department.js';
export * from './log.js';
export * from './menu.js';
export * from './permission.js';
export * from './position.js';
export * from './recovery-code.js';
export * from './role.js';
export * from './session.js';
export * from './system.js';
export * from './tenant.js';
export * from './user.js';
