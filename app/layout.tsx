import type { Metadata, Viewport } from "next";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { ClientMessages } from "@/components/i18n/client-messages";
import { TimeZoneSync } from "@/components/i18n/time-zone-sync";
import { ServiceWorkerRegistration } from "@/components/service-worker-registration";
import { env } from "@/lib/server/env.mjs";

import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("common");
  return {
    title: { default: "Holdfast", template: "%s · Holdfast" },
    description: t("tagline"),
    icons: { icon: "/favicon.svg" },
  };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [locale, timeZone] = await Promise.all([getLocale(), getTimeZone()]);
  return (
    <html lang={locale}>
      <body>
        <ClientMessages namespaces={[]}>
          {children}
          <TimeZoneSync serverTimeZone={timeZone} />
        </ClientMessages>
        <ServiceWorkerRegistration isEnabled={env.NODE_ENV === "production"} />
      </body>
    </html>
  );
}
