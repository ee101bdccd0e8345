import { defineEnum } from '../../rpc/wire.js';

/**
 * The kind of organizational unit, with the original's names and numbers (XiHan.BasicApp,
 * Saas/Domain/Enums/DepartmentType.cs): its admin front end sends and reads them. New
 * departments are Department unless told otherwise, as in the original.
 */
export const DepartmentType = defineEnum('DepartmentType', {
  Corporation: 0,
  Headquarters: 1,
  Company: 2,
  Branch: 3,
  Division: 4,
  Center: 5,
  Department: 6,
  Section: 7,
  Team: 8,
  Group: 9,
  Project: 10,
  Workgroup: 11,
  Virtual: 12,
  Office: 13,
  Subsidiary: 14,
  Other: 99,
});
