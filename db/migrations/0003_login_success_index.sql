-- The risk check of a successful login reads the user's last 50 successes (login-log.ts): a partial
-- index of successes finds exactly those, whatever number of failed attempts lies between them.
CREATE INDEX "login_logs_user_success_time_idx" ON "login_logs" USING btree ("user_id","login_time") WHERE "login_logs"."result" = 0;