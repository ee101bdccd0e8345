import { roles } from '../../../../db/schema/index.js';
import { definePagedList } from '../../query/index.js';
import { EnableStatus } from '../permission/admin-scope.js';
import { DataScope, RoleType } from './enums.js';

/** The roles list of RoleQuery/RolePage: fields clients may filter, sort and search. */
export const roleList = definePagedList({
  fields: {
    basicId: { column: roles.id, type: 'id' },
    roleCode: { column: roles.roleCode, type: 'string', keyword: true },
    roleName: { column: roles.roleName, type: 'string', keyword: true },
    roleDescription: { column: roles.roleDescription, type: 'string', keyword: true, sortable: false },
    roleType: { column: roles.roleType, type: 'enum', enum: RoleType },
    dataScope: { column: roles.dataScope, type: 'enum', enum: DataScope },
    status: { column: roles.status, type: 'enum', enum: EnableStatus },
    maxMembers: { column: roles.maxMembers, type: 'integer' },
    sort: { column: roles.sort, type: 'integer' },
    createdTime: { column: roles.createdTime, type: 'datetime' },
    modifiedTime: { column: roles.modifiedTime, type: 'datetime' },
  },
  defaultSort: [{ field: 'sort' }, { field: 'createdTime', direction: 'Descending' }],
  tieBreaker: roles.id,
  defaultKeywordFields: ['roleCode', 'roleName'],
});
