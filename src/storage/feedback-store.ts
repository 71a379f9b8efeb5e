// What every engine must offer for feedback.
// (Filled in by the feedback work.)
export interface FeedbackStore {}
