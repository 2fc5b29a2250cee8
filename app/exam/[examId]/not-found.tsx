import { JoinLinkNeeded } from "@/components/join-link-needed";

export default function ExamNotFound() {
  return <JoinLinkNeeded />;
}
