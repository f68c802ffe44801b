import { fromConnectError } from "@gateway/platform";
import { type BusinessVerification, VerificationStatus } from "@gateway/proto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { formOf } from "../../checkout/form-body.js";
import { html, type SafeHtml } from "../../checkout/html.js";
import { audit } from "../audit.js";
import type { DashboardRouteDeps } from "../dashboard-deps.js";
import { type DashboardPage, pageOf } from "../dashboard-page.js";
import { may } from "../permissions.js";
import { csrfInput } from "../views/dashboard-layout.js";
import { renderFlash } from "../views/dashboard-notice.js";
import { utcHtml } from "../views/format.js";

const STATUS_KEYS = {
  [VerificationStatus.UNSPECIFIED]: "not_submitted",
  [VerificationStatus.NOT_SUBMITTED]: "not_submitted",
  [VerificationStatus.PENDING]: "pending",
  [VerificationStatus.APPROVED]: "approved",
  [VerificationStatus.REJECTED]: "rejected",
} as const;

type Typed = Record<"legal_name" | "registration_number" | "country" | "address" | "website", string>;

/**
 * Business verification from the merchant's side: its state, the operator's reason when
 * rejected, and the form (owners and developers) that sends the details for review.
 */
export function registerBusinessRoutes(scope: FastifyInstance, deps: DashboardRouteDeps): void {
  const { clients, respond, secureCookies } = deps;
  const verifications = clients.businessVerification;
  if (!verifications) return;

  const businessPage = async (
    reply: FastifyReply,
    page: DashboardPage,
    o: { status?: number; flash?: SafeHtml; typed?: Typed; invalidFields?: Set<string> } = {},
  ) => {
    const { m } = page;
    const viewer = page.viewer!;
    const { verification } = await verifications.getBusinessVerification({
      merchantId: viewer.user.merchantId,
    });
    const v = verification as BusinessVerification;
    const statusKey = STATUS_KEYS[v.status];
    const typed: Typed = o.typed ?? {
      legal_name: v.details?.legalName ?? "",
      registration_number: v.details?.registrationNumber ?? "",
      country: v.details?.country ?? "",
      address: v.details?.address ?? "",
      website: v.details?.website ?? "",
    };
    const field = (name: keyof Typed, label: string, required: boolean) =>
      html`<div class="field"><label for="${name}">${label}</label>${
        name === "address"
          ? html`<textarea id="${name}" name="${name}" rows="3"${required ? html` required` : ""}${o.invalidFields?.has(name) ? html` aria-invalid="true"` : ""}>${typed[name]}</textarea>`
          : html`<input id="${name}" name="${name}" type="text"${required ? html` required` : ""}${o.invalidFields?.has(name) ? html` aria-invalid="true"` : ""} value="${typed[name]}">`
      }</div>`;
    const form =
      may(viewer.user.role, "manage_settings") && statusKey !== "approved"
        ? html`<form method="post" action="/dashboard/settings/business">${csrfInput(page)}
${field("legal_name", m.business.legalName, true)}
${field("registration_number", m.business.registrationNumber, true)}
${field("country", m.business.country, true)}
${field("address", m.business.address, true)}
${field("website", m.business.website, false)}
<button class="button primary inline" type="submit">${m.business.submit}</button>
</form>`
        : "";
    return respond.page(reply, page, {
      status: o.status ?? 200,
      title: m.business.title,
      section: "business",
      main: html`<h1>${m.business.title}</h1>
${o.flash ?? ""}
<p>${m.business.intro}</p>
<dl class="facts">
<div><dt>${m.business.status}</dt><dd>${m.business.statuses[statusKey]}</dd></div>
${v.submittedAt ? html`<div><dt>${m.session.createdAt}</dt><dd>${utcHtml(v.submittedAt)}</dd></div>` : ""}
${v.reason ? html`<div><dt>${m.business.reason}</dt><dd>${v.reason}</dd></div>` : ""}
</dl>
${form}`,
    });
  };

  scope.get("/settings/business", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const sent = (request.query as Record<string, unknown>).sent === "1";
    return businessPage(
      reply,
      page,
      sent ? { flash: renderFlash({ text: page.m.business.submitted, tone: "success" }) } : {},
    );
  });

  scope.post("/settings/business", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const viewer = page.viewer!;
    if (!may(viewer.user.role, "manage_settings")) return respond.forbidden(reply, page);
    const body = formOf(request.body);
    const typed: Typed = {
      legal_name: body.get("legal_name") ?? "",
      registration_number: body.get("registration_number") ?? "",
      country: body.get("country") ?? "",
      address: body.get("address") ?? "",
      website: body.get("website") ?? "",
    };
    try {
      await verifications.submitBusinessDetails({
        merchantId: viewer.user.merchantId,
        details: {
          legalName: typed.legal_name,
          registrationNumber: typed.registration_number,
          country: typed.country,
          address: typed.address,
          website: typed.website,
        },
      });
    } catch (err) {
      const failure = fromConnectError(err);
      if (failure.reason !== "VALIDATION_ERROR" && failure.reason !== "INVALID_STATE") throw failure;
      const details = failure.violations.map((v) => v.message).join(" ") || failure.message;
      return businessPage(reply, page, {
        status: 422,
        typed,
        invalidFields: new Set(failure.violations.map((v) => v.field)),
        flash: renderFlash({ text: `${page.m.business.invalid}. ${details}`, tone: "alert" }),
      });
    }
    await audit(deps, page, "business.details_submitted");
    return respond.redirect(reply, page, "/dashboard/settings/business?sent=1");
  });
}
