import type { Migration } from 'kysely';
import * as initial from './2026-11-21T0001-initial.js';
import * as webhooks from './2026-11-21T0002-webhooks.js';
import * as processing from './2026-11-21T0003-processing.js';
import * as growthIndexes from './2026-11-21T0004-growth-indexes.js';
import * as overdueIndex from './2026-11-21T0005-overdue-index.js';
import * as webhookTenancy from './2026-11-23T0001-webhook-tenancy.js';
import * as requestFiler from './2026-11-23T0002-request-filer.js';
import * as packageExpiry from './2026-11-23T0003-package-expiry.js';
import * as controllerProfiles from './2026-11-24T0201-controller-profiles.js';
import * as outboundEvents from './2026-11-24T0005-outbound-events.js';
import * as outboundWiring from './2026-11-24T0006-outbound-wiring.js';
import * as auditQueue from './2026-11-24T0101-audit-queue.js';
import * as dataTasks from './2026-11-24T0301-data-tasks.js';
import * as leanerFilingIndexes from './2026-11-24T0401-leaner-filing-indexes.js';
import * as receivedAt from './2026-11-25T0201-received-at.js';
import * as taskRuns from './2026-11-25T0401-task-runs.js';
import * as subjectEmail from './2026-11-28T0101-subject-email.js';
import * as subjectFound from './2026-11-28T0102-subject-found.js';
import * as connectors from './2026-11-25T0301-connectors.js';
import * as fairDelivery from './2026-11-28T0201-fair-delivery.js';
import * as privacyCenter from './2026-11-28T0301-privacy-center.js';
import * as officerDay from './2026-11-28T0401-officer-day.js';
import * as taskResultBytes from './2026-11-28T0501-task-result-bytes.js';
import * as packageDelivery from './2026-11-28T0702-package-delivery.js';
import * as statsCoveringIndex from './2026-11-28T0801-stats-covering-index.js';
import * as reportReceivedIndex from './2026-11-28T0802-report-received-index.js';
import * as taskRunProgress from './2026-12-07T0101-task-run-progress.js';
import * as dataSystemProcessing from './2026-12-07T0401-data-system-processing.js';
import * as mailLeaseToken from './2026-12-07T0501-mail-lease-token.js';
import * as emailSubjectSearch from './2026-12-07T0701-email-subject-search.js';
import * as optOuts from './2026-12-07T0801-opt-outs.js';
import * as optOutPropagation from './2026-12-08T0101-opt-out-propagation.js';
import * as repeatRequests from './2026-12-08T0201-repeat-requests.js';
import * as centerOptIn from './2026-12-08T0301-center-opt-in.js';
import * as drp from './2026-12-08T0401-drp.js';
import * as requestAgent from './2026-12-08T0402-request-agent.js';
import * as drpCallbacks from './2026-12-08T0403-drp-callbacks.js';
import * as optOutAgent from './2026-12-08T0404-opt-out-agent.js';
import * as packageRedactions from './2026-12-08T0501-package-redactions.js';
import * as centerAgentRequests from './2026-12-08T0601-center-agent-requests.js';
import * as drpUserVerifications from './2026-12-08T0621-drp-user-verifications.js';
import * as requestAgentId from './2026-12-08T0701-request-agent-id.js';
import * as dropDrpPrivacyRequestIdx from './2026-12-08T0801-drop-drp-privacy-request-idx.js';

/**
 * Every migration, by name; names sort in the order they run. Listed statically (no folder scan)
 * so the compiled build and tsx run the same set.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-21T0001-initial': initial,
  '2026-11-21T0002-webhooks': webhooks,
  '2026-11-21T0003-processing': processing,
  '2026-11-21T0004-growth-indexes': growthIndexes,
  '2026-11-21T0005-overdue-index': overdueIndex,
  '2026-11-23T0001-webhook-tenancy': webhookTenancy,
  '2026-11-23T0002-request-filer': requestFiler,
  '2026-11-23T0003-package-expiry': packageExpiry,
  '2026-11-24T0005-outbound-events': outboundEvents,
  '2026-11-24T0006-outbound-wiring': outboundWiring,
  '2026-11-24T0101-audit-queue': auditQueue,
  '2026-11-24T0201-controller-profiles': controllerProfiles,
  '2026-11-24T0301-data-tasks': dataTasks,
  '2026-11-24T0401-leaner-filing-indexes': leanerFilingIndexes,
  '2026-11-25T0201-received-at': receivedAt,
  '2026-11-25T0301-connectors': connectors,
  '2026-11-25T0401-task-runs': taskRuns,
  '2026-11-28T0101-subject-email': subjectEmail,
  '2026-11-28T0102-subject-found': subjectFound,
  '2026-11-28T0201-fair-delivery': fairDelivery,
  '2026-11-28T0301-privacy-center': privacyCenter,
  '2026-11-28T0401-officer-day': officerDay,
  '2026-11-28T0501-task-result-bytes': taskResultBytes,
  '2026-11-28T0702-package-delivery': packageDelivery,
  '2026-11-28T0801-stats-covering-index': statsCoveringIndex,
  '2026-11-28T0802-report-received-index': reportReceivedIndex,
  '2026-12-07T0101-task-run-progress': taskRunProgress,
  '2026-12-07T0401-data-system-processing': dataSystemProcessing,
  '2026-12-07T0501-mail-lease-token': mailLeaseToken,
  '2026-12-07T0701-email-subject-search': emailSubjectSearch,
  '2026-12-07T0801-opt-outs': optOuts,
  '2026-12-08T0101-opt-out-propagation': optOutPropagation,
  '2026-12-08T0201-repeat-requests': repeatRequests,
  '2026-12-08T0301-center-opt-in': centerOptIn,
  '2026-12-08T0401-drp': drp,
  '2026-12-08T0402-request-agent': requestAgent,
  '2026-12-08T0403-drp-callbacks': drpCallbacks,
  '2026-12-08T0404-opt-out-agent': optOutAgent,
  '2026-12-08T0501-package-redactions': packageRedactions,
  '2026-12-08T0601-center-agent-requests': centerAgentRequests,
  '2026-12-08T0621-drp-user-verifications': drpUserVerifications,
  '2026-12-08T0701-request-agent-id': requestAgentId,
  '2026-12-08T0801-drop-drp-privacy-request-idx': dropDrpPrivacyRequestIdx,
};
