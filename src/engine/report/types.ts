import * as z from "zod/mini";
import { ActionSchema } from "../vocabulary.js";
import { SignalsSchema } from "../signals.js";

export const CandidateSchema = z.object({
  action: ActionSchema,
  signals: SignalsSchema,
  /** A `U=` the model wrote on the row, if any; checked like the Utility line. */
  utility: z.optional(z.number()),
});
export type Candidate = z.infer<typeof CandidateSchema>;

/** The model's written decision (SPEC §4). `candidates` is present in the long form only. */
export const ReportSchema = z.object({
  action: ActionSchema,
  utility: z.number(),
  signals: SignalsSchema,
  rationale: z.string(),
  candidates: z.optional(z.array(CandidateSchema)),
});
export type Report = z.infer<typeof ReportSchema>;
