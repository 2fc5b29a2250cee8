/**
 * Query keys of the proctor dashboard, from one factory (TkDodo, "Effective React Query Keys"): every key
 * starts with the exam, so invalidating `proctorKeys.exam(examId)` refreshes all of that exam's reads.
 */
export const proctorKeys = {
  all: ["proctor"] as const,
  exam: (examId: string) => [...proctorKeys.all, "exam", examId] as const,
  candidates: (examId: string) => [...proctorKeys.exam(examId), "candidates"] as const,
  health: (examId: string) => [...proctorKeys.exam(examId), "health"] as const,
  announcements: (examId: string) => [...proctorKeys.exam(examId), "announcements"] as const,
  timeline: (examId: string, enrollmentId: string) => [...proctorKeys.exam(examId), "timeline", enrollmentId] as const,
};
