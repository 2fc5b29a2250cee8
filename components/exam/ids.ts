// Element ids the exam page's server part (skip link) and client part (questions, jumps) agree on.

export const questionHeadingId = (questionId: string) => `question-${questionId}`;

/** The exam page's main element: where "skip" lands when there are no questions to show (submitted). */
export const EXAM_MAIN_ID = "exam-main";

/**
 * Set (in sessionStorage, to the attempt id) by Start and Resume just before they open the exam page, which
 * then moves focus to the first question once. A reload leaves focus where the browser puts it, with the
 * skip link first.
 */
export const FOCUS_FIRST_QUESTION_KEY = "holdfast:focus-first-question";

/** The note below the paper once the time is up: the submit buttons point at it to say why they are unavailable. */
export const TIME_UP_NOTE_ID = "exam-time-up-note";

/** The emergency-export notice's heading: the countdown links to it once the file is offered. */
export const EMERGENCY_EXPORT_ID = "emergency-export-title";
