import { z } from 'zod';
import { zDateTimeOut } from '../../rpc/wire.js';
import { StatisticsPeriod } from '../metadata/enum-catalogue.js';

const period = z.enum(
  Object.keys(StatisticsPeriod) as [keyof typeof StatisticsPeriod, ...Array<keyof typeof StatisticsPeriod>],
);

/** The original's WorkbenchDashboardStatisticsDto (Saas/Application/Dtos/Workbench). */
export const dashboardStatistics = z.object({
  statisticsDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  period,
  loginCount: z.number().int(),
  accessCount: z.number().int(),
  onlineTime: z.number().int(),
  operationCount: z.number().int(),
  apiCallCount: z.number().int(),
  errorOperationCount: z.number().int(),
  lastLoginTime: zDateTimeOut().nullish(),
  lastAccessTime: zDateTimeOut().nullish(),
  lastOperationTime: zDateTimeOut().nullish(),
});

export const dashboardSummary = z.object({
  generatedTime: zDateTimeOut(),
  statistics: dashboardStatistics,
});
