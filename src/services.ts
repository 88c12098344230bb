import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { createOidcVerifier } from './http/auth/oidc-verifier.js';
import { filingRecordCodec } from './http/replay/filing-record.js';
import { optOutRecordCodec } from './http/replay/opt-out-record.js';
import { bindDeps } from './lib/bind-deps.js';
import { bindOptOutUseCases } from './workflows/opt-outs/opt-out-use-cases.js';
import { readQueueStats } from './workflows/opt-outs/read-queue-stats.js';
import { readRequestReport } from './workflows/opt-outs/read-request-report.js';
import { type Clock, systemClock } from './lib/clock.js';
import { createSecretBox } from './lib/secret-box.js';
import { createAuditService } from './modules/audit/audit.service.js';
import { bindControllerProfiles } from './workflows/controllers/controller-profiles.js';
import { bindChangeEvents } from './workflows/change-events/change-events.js';
import { createDataSystemService } from './modules/data-systems/data-system.service.js';
import { bindDatabaseDryRuns } from './workflows/data-systems/database-dry-runs.js';
import { createDataTaskService } from './modules/data-systems/data-task.service.js';
import { createIdempotencyService } from './modules/idempotency/idempotency.service.js';
import { createIntegrationService } from './modules/integrations/integration.service.js';
import { createPolicyService } from './modules/policies/policy.service.js';
import { bindRequestActions } from './workflows/requests/request-actions.js';
import { bindRequestNotes } from './workflows/request-notes/request-notes.js';
import { bindPackageReview } from './workflows/package-review/package-review.js';
import { createRequestReportService } from './modules/privacy-requests/request-report.service.js';
import { bindIdentityReview } from './workflows/identity-review/identity-review.js';
import { bindTaskResults } from './workflows/tasks/task-results.js';
import { createPrivacyRequestService } from './modules/privacy-requests/privacy-request.service.js';
import { bindRequestResults } from './workflows/results/request-results.js';
import { loadServiceKeys, type ServiceKeys } from './modules/service-keys/service-key.service.js';
import { createSubjectService } from './modules/subjects/subject.service.js';
import { createTokenService } from './modules/tokens/token.service.js';
import { createMessageLogService } from './modules/outbound-events/message-log.service.js';
import { createWebhookEndpointService } from './modules/outbound-events/webhook-endpoint.service.js';
import { createPrivacyCenterSettingsService } from './modules/privacy-center/settings.service.js';
import { createSubmissionService } from './modules/privacy-center/submission.service.js';
import { createAgentSubmissionService } from './modules/privacy-center/agent-submission.service.js';
import { bindAgentRequests } from './workflows/privacy-center/agent-requests/agent-requests.js';
import { createCenterStatusService } from './modules/privacy-center/status.service.js';
import { type FileRequest, type FilingDeps, filePrivacyRequest } from './workflows/filing/file-privacy-request.js';
import { bindCenterIntake } from './workflows/filing/center-intake.js';
import { bindDrpAdmin } from './workflows/drp/drp-admin.js';
import { bindDrpProtocol } from './workflows/drp/drp-protocol.js';
import { bindDrpPerson } from './workflows/drp/verify-drp-person.js';
import { userVerificationToken, userVerificationUrl } from './modules/drp/user-verification.fns.js';
import { bindDrpCallbacks } from './workflows/drp/drp-callbacks.js';
import { isForbiddenAddress } from './modules/outbound-events/address-guard.js';
import { bindCenterSubmit } from './workflows/privacy-center/center-submit.js';

/** Every service, wired once (by {@link createServices}). Routes and CLI commands receive what they need from here. */
export type Services = Readonly<ReturnType<typeof createServices>>;

/**
 * The composition root for domain services: each is a factory given its dependencies.
 *
 * @param deps.clock - defaults to the system clock; tests pass a fixed one.
 */
export function createServices(deps: { config: Config; database: Database; keys: ServiceKeys; clock?: Clock }) {
  const clock = deps.clock ?? systemClock;
  const db = deps.database.db;
  const externalChanges = deps.database.externalChanges;
  const policies = createPolicyService({ db, clock, externalChanges });
  const transact = deps.database.transact;
  const idempotency = createIdempotencyService({ db, clock });
  const secretBox = createSecretBox(deps.keys.secretsKey);
  const allowPrivate = deps.config.outboundAllowPrivateNetworks;
  const privacyRequests = createPrivacyRequestService({ db, clock });
  const filing: FilingDeps = {
    clock,
    db,
    // A filing's unit only defers its writes (filing-batch.ts, idempotency/key-claims.ts).
    transact: deps.database.transactDeferred,
    idempotency,
    policies,
    filingRecord: filingRecordCodec,
  };
  /** Files a privacy request (the one filing path: API, privacy center, identity events). */
  const fileRequest: FileRequest = (principal, key, input, options) => filePrivacyRequest(filing, principal, key, input, options);
  const privacyCenter = createPrivacyCenterSettingsService({ db, clock });
  const centerSubmissions = createSubmissionService({
    db,
    transact,
    clock,
    hashKey: deps.keys.pseudonymKey,
    seal: (text: string) => secretBox.seal(text),
    settings: privacyCenter,
  });
  const optOuts = bindOptOutUseCases({
    db,
    clock,
    // Like a filing's, an opt-out's unit only defers its writes (opt-out-filing.ts, idempotency/key-claims.ts).
    transact: deps.database.transactDeferred,
    idempotency,
    policies,
    optOutRecord: optOutRecordCodec,
    publicBaseUrl: deps.config.worker.publicBaseUrl ?? 'http://127.0.0.1:8080',
  });
  const publicBaseUrl = deps.config.worker.publicBaseUrl ?? 'http://127.0.0.1:8080';
  // A DRP-filed access request's results link (PRODUCT §2.19; docs/decisions.md "The DRP results link").
  const resultsLinks = { publicBaseUrl, key: deps.keys.pseudonymKey };
  return {
    database: deps.database,
    clock,
    tokens: createTokenService({ db, clock, externalChanges }),
    policies,
    privacyRequests,
    fileRequest,
    requestActions: bindRequestActions({ db, clock }),
    requestNotes: bindRequestNotes({ db, clock }),
    /** The requests report (PRODUCT §2.16) with the opt-outs' §7102(a) rows (§2.18). */
    requestReport: bindDeps(readRequestReport, { db, requestReports: createRequestReportService({ db }) }),
    /** The review of requests for an identity nothing matched (PRODUCT §2.13). */
    identityReview: bindIdentityReview({
      db,
      clock,
      publicBaseUrl: deps.config.worker.publicBaseUrl ?? 'http://127.0.0.1:8080',
      seal: (text: string) => secretBox.seal(text),
    }),
    requestResults: bindRequestResults({ db, clock }),
    /** The review of a package before release (PRODUCT §2.20). */
    packageReview: bindPackageReview({ db, clock }),
    keys: deps.keys,
    integrations: createIntegrationService({ db, clock, secretBox, externalChanges }),
    subjects: createSubjectService({ db, transact, clock, pseudonymKey: deps.keys.pseudonymKey }),
    changeEvents: bindChangeEvents({ db, transact, clock, policies, pseudonymKey: deps.keys.pseudonymKey }),
    audit: createAuditService({ db }),
    controllers: bindControllerProfiles({ db, clock }),
    dataSystems: createDataSystemService({ db, clock, secretBox, connectors: deps.config.connectors }),
    /** Preview and test of database systems (PRODUCT §2.14). */
    dataSystemConnectors: bindDatabaseDryRuns({
      db,
      secretBox,
      connectors: deps.config.connectors,
      pseudonymKey: deps.keys.pseudonymKey,
    }),
    /** Connector settings (allowed hosts, statement timeout, row cap), for the task executor. */
    connectors: deps.config.connectors,
    dataTasks: createDataTaskService({ db, clock }),
    /** A data task's result, which may end its request (the request lifecycle's). */
    taskResults: bindTaskResults({ db, clock, limits: deps.config.taskDataLimits }),
    oidc: deps.config.oidc ? createOidcVerifier(deps.config.oidc) : null,
    webhookEndpoints: createWebhookEndpointService({
      db,
      clock,
      secretBox,
      allowPrivate,
      maxPerWorkspace: deps.config.outboundLimits.endpointsPerWorkspace,
    }),
    outboundMessages: createMessageLogService({ db, clock }),
    /** Encrypts stored secrets (integrations, webhook endpoints) under the service's secrets key. */
    secretBox,
    /** `OUTBOUND_ALLOW_PRIVATE_NETWORKS`, for the delivery loop. */
    outboundAllowPrivateNetworks: allowPrivate,
    /** `OUTBOUND_MAX_IN_FLIGHT`, `OUTBOUND_ENDPOINT_CONCURRENCY` (and the endpoint cap), for the delivery loop. */
    outboundLimits: deps.config.outboundLimits,
    /** The privacy center's mail, limits and CAPTCHA settings (SMTP_URL, REDIS_URL, CAPTCHA_*). */
    centerConfig: deps.config.privacyCenter,
    /** The privacy center's per-workspace settings (PRODUCT §2.15). */
    privacyCenter,
    /** Privacy-center submissions before verification. */
    centerSubmissions,
    /** A verified submission becomes a privacy request. */
    centerIntake: bindCenterIntake({
      submissions: centerSubmissions,
      privacyRequests,
      fileRequest,
      pseudonymKey: deps.keys.pseudonymKey,
    }),
    /** The center's agent path: an authorized agent outside DRP files, the person confirms (PRODUCT §2.19). */
    agentRequests: bindAgentRequests({
      agentSubmissions: createAgentSubmissionService({
        db,
        transact,
        clock,
        hashKey: deps.keys.pseudonymKey,
        seal: (text: string) => secretBox.seal(text),
        settings: privacyCenter,
      }),
      privacyRequests,
      fileRequest,
      pseudonymKey: deps.keys.pseudonymKey,
    }),
    /** The status page's capability tokens. */
    centerStatus: createCenterStatusService({ db }),
    /** The queue's counts (PRODUCT §2.16) with the opt-outs' (§2.18). */
    queueStats: bindDeps(readQueueStats, { db, clock, privacyRequests }),
    /** The opt-out use cases (src/workflows/opt-outs/, PRODUCT §2.18). */
    optOuts,
    /** What a person submits at the center: a request (and with `Sec-GPC: 1` the `gpc` opt-out), the opt-out form (§2.18). */
    centerSubmit: bindCenterSubmit({
      optOuts,
      settings: privacyCenter,
      submissions: centerSubmissions,
      clock,
      pseudonymKey: deps.keys.pseudonymKey,
    }),
    /** The Data Rights Protocol's administration: settings and agent registrations (PRODUCT §2.19). */
    drpAdmin: bindDrpAdmin({ db, clock, publicBaseUrl }),
    /** The DRP routes' use cases: key setup, exercise, status, revoke (PRODUCT §2.19). */
    drp: bindDrpProtocol({
      db,
      transact,
      clock,
      fileRequest,
      fileOptOut: optOuts.file,
      callbackRules: { allowPrivate, isForbiddenAddress },
      resultsLinks,
      policies,
      seal: (text: string) => secretBox.seal(text),
      verificationUrl: (workspaceId: string, requestId: string) =>
        userVerificationUrl(publicBaseUrl, workspaceId, requestId, userVerificationToken(deps.keys.pseudonymKey, requestId)),
      filingToCome: () => deps.database.transactDeferred.expect(),
    }),
    /** The person's own code for an agent's DRP request (PRODUCT §2.19 `need_user_verification`). */
    drpPerson: bindDrpPerson({
      db,
      clock,
      hashKey: deps.keys.pseudonymKey,
      seal: (text: string) => secretBox.seal(text),
      open: (sealed: string) => secretBox.open(sealed),
      fileRequest,
      fileOptOut: optOuts.file,
      allowPrivate,
    }),
    /** DRP status callbacks: the sweep for changes and their delivery (PRODUCT §2.19). */
    drpCallbacks: bindDrpCallbacks({ db, clock, allowPrivate, resultsLinks }),
  };
}

/**
 * Loads the service keys (generating them on a first start) and creates the services: what the
 * server, the CLI and the tests all do after migrating.
 */
export async function openServices(deps: { config: Config; database: Database; clock?: Clock }): Promise<Services> {
  const keys = await loadServiceKeys(deps.database.db, deps.clock ?? systemClock, deps.config);
  return createServices({ ...deps, keys });
}
