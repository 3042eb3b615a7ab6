CREATE TABLE "verification_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"verification_id" text NOT NULL,
	"author_id" text,
	"text" text NOT NULL,
	"corrects_note_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verification_notes_text_length" CHECK (char_length("verification_notes"."text") between 1 and 2000)
);
--> statement-breakpoint
ALTER TABLE "verification_requests" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verification_requests" ADD COLUMN "method" text;--> statement-breakpoint
ALTER TABLE "verification_requests" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "verification_requests" ADD COLUMN "assigned_to" text;--> statement-breakpoint
ALTER TABLE "verification_requests" ADD COLUMN "assigned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verification_notes" ADD CONSTRAINT "verification_notes_verification_id_verification_requests_verification_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."verification_requests"("verification_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_notes" ADD CONSTRAINT "verification_notes_author_id_staff_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_notes" ADD CONSTRAINT "verification_notes_corrects_note_id_verification_notes_id_fk" FOREIGN KEY ("corrects_note_id") REFERENCES "public"."verification_notes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_notes_verification_created_idx" ON "verification_notes" USING btree ("verification_id","created_at");--> statement-breakpoint
ALTER TABLE "verification_requests" ADD CONSTRAINT "verification_requests_assigned_to_staff_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_requests_assigned_idx" ON "verification_requests" USING btree ("assigned_to","created_at") WHERE "verification_requests"."assigned_to" is not null;--> statement-breakpoint
-- Notes are append-only, whoever writes: the database refuses to change what a note says, whose
-- request it is on, when it was written or what it corrects. Deleting goes only with the register
-- row (its purge at kept_until), and an author's account going sets author_id to null.
CREATE FUNCTION "refuse_note_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."text" IS DISTINCT FROM OLD."text"
    OR NEW."verification_id" IS DISTINCT FROM OLD."verification_id"
    OR NEW."created_at" IS DISTINCT FROM OLD."created_at"
    OR NEW."corrects_note_id" IS DISTINCT FROM OLD."corrects_note_id"
    OR NEW."id" IS DISTINCT FROM OLD."id"
    OR (NEW."author_id" IS DISTINCT FROM OLD."author_id" AND NEW."author_id" IS NOT NULL) THEN
    RAISE EXCEPTION 'verification notes are append-only: write a correction instead';
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "verification_notes_append_only"
  BEFORE UPDATE ON "verification_notes"
  FOR EACH ROW EXECUTE FUNCTION "refuse_note_changes"();
