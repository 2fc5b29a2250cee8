import { JoinLinkNeeded } from "@/components/join-link-needed";

export default function AttemptNotFound() {
  return <JoinLinkNeeded />;
}
