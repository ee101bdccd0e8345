-- Enums take the original's member names (XiHan.BasicApp v3.13.0, Saas/Domain/Enums); stored rows
-- keep their meaning. DataPermissionScope's longest name needs 21 characters.
ALTER TABLE "roles" ALTER COLUMN "data_scope" SET DATA TYPE varchar(32);--> statement-breakpoint
UPDATE "roles" SET "data_scope" = CASE "data_scope" WHEN 'Self' THEN 'SelfOnly' WHEN 'Dept' THEN 'DepartmentOnly' ELSE 'DepartmentAndChildren' END WHERE "data_scope" IN ('Self', 'Dept', 'DeptAndBelow');--> statement-breakpoint
ALTER TABLE "roles" ALTER COLUMN "data_scope" SET DEFAULT 'SelfOnly';--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "data_scope_override" SET DATA TYPE varchar(32);--> statement-breakpoint
UPDATE "users" SET "data_scope_override" = CASE "data_scope_override" WHEN 'Self' THEN 'SelfOnly' WHEN 'Dept' THEN 'DepartmentOnly' ELSE 'DepartmentAndChildren' END WHERE "data_scope_override" IN ('Self', 'Dept', 'DeptAndBelow');--> statement-breakpoint
-- department_type was free text: a member's name (any case) or number becomes that member's name,
-- any other text becomes Other and is kept in the remark, and none becomes Department (the
-- original's default).
UPDATE "departments" AS d SET "department_type" = m.name FROM (VALUES ('Corporation', '0'), ('Headquarters', '1'), ('Company', '2'), ('Branch', '3'), ('Division', '4'), ('Center', '5'), ('Department', '6'), ('Section', '7'), ('Team', '8'), ('Group', '9'), ('Project', '10'), ('Workgroup', '11'), ('Virtual', '12'), ('Office', '13'), ('Subsidiary', '14'), ('Other', '99')) AS m(name, num) WHERE lower(btrim(d."department_type")) = lower(m.name) OR btrim(d."department_type") = m.num;--> statement-breakpoint
UPDATE "departments" SET "remark" = concat_ws(E'\n', "remark", 'departmentType: ' || "department_type"), "department_type" = 'Other' WHERE "department_type" NOT IN ('Corporation', 'Headquarters', 'Company', 'Branch', 'Division', 'Center', 'Department', 'Section', 'Team', 'Group', 'Project', 'Workgroup', 'Virtual', 'Office', 'Subsidiary', 'Other');--> statement-breakpoint
UPDATE "departments" SET "department_type" = 'Department' WHERE "department_type" IS NULL;--> statement-breakpoint
ALTER TABLE "departments" ALTER COLUMN "department_type" SET DEFAULT 'Department';--> statement-breakpoint
ALTER TABLE "departments" ALTER COLUMN "department_type" SET NOT NULL;
