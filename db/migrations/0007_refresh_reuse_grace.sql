ALTER TABLE "user_sessions" ADD COLUMN "grace_refresh_hash" varchar(64);--> statement-breakpoint
ALTER TABLE "user_sessions" ADD COLUMN "grace_access_jti" varchar(64);--> statement-breakpoint
ALTER TABLE "user_sessions" ADD COLUMN "grace_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_sessions" ADD COLUMN "grace_access_claims" text;