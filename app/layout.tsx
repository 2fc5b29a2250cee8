import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";

import { ServiceWorkerRegistration } from "@/components/service-worker-registration";
import { env } from "@/lib/server/env.mjs";

import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Holdfast", template: "%s · Holdfast" },
  description: "Online exams where a candidate never loses an answer and never submits twice.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        {children}
        <ServiceWorkerRegistration isEnabled={env.NODE_ENV === "production"} />
      </body>
    </html>
  );
}
