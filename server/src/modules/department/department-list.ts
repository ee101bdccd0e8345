import { departments } from '../../../../db/schema/department.js';
import { definePagedList } from '../../query/index.js';
import { EnableStatus } from '../permission/admin-scope.js';
import { DepartmentType } from './enums.js';

/** The departments list of DepartmentQuery/DepartmentPage. */
export const departmentList = definePagedList({
  fields: {
    basicId: { column: departments.id, type: 'id' },
    parentId: { column: departments.parentId, type: 'id' },
    departmentName: { column: departments.departmentName, type: 'string', keyword: true },
    departmentCode: { column: departments.departmentCode, type: 'string', keyword: true },
    departmentType: { column: departments.departmentType, type: 'enum', enum: DepartmentType },
    leaderId: { column: departments.leaderId, type: 'id' },
    status: { column: departments.status, type: 'enum', enum: EnableStatus },
    sort: { column: departments.sort, type: 'integer' },
    createdTime: { column: departments.createdTime, type: 'datetime' },
    modifiedTime: { column: departments.modifiedTime, type: 'datetime' },
  },
  defaultSort: [{ field: 'sort' }, { field: 'departmentName' }],
  tieBreaker: departments.id,
  defaultKeywordFields: ['departmentName', 'departmentCode'],
});
