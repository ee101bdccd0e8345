CREATE TABLE "recovery_codes" (
	"id" bigint PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"code_digest" varchar(64) NOT NULL,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"used_time" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "recovery_codes_user_digest_uq" ON "recovery_codes" USING btree ("user_id","code_digest");