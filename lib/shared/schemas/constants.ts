// The closed lists the schemas are built from, without zod: the exam page's bundle imports these, and
// importing them from the zod schema modules would pull the whole zod build into it.

export const ATTEMPT_STATUSES = ["in_progress", "submitted"] as const;
export const QUESTION_TYPES = ["single_choice", "multiple_choice", "short_text", "essay", "numeric"] as const;
