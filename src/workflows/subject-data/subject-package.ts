import type { Executor } from '../../db/executor.js';
import { workspaceController } from '../../modules/controllers/controller.repository.js';
import { workspacePolicy } from '../../modules/policies/workspace-policy.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import {
  buildAccessPackage,
  buildExportPackage,
  type PackagePolicy,
  type PackageRequest,
} from '../../modules/subject-data/package.fns.js';
import type { AccessPackage, ExportPackage } from '../../modules/subject-data/package.types.js';
import { parseScope } from '../../modules/subject-data/scope.fns.js';
import { gatherSubjectData } from '../../modules/subject-data/subject-data.repository.js';

function packageRequest(row: PrivacyRequestRow): PackageRequest {
  const { id, workspace_id, subject_provider, subject_id, regulation } = row;
  return { id, workspace_id, subject_provider, subject_id, regulation, scope: parseScope(row.scope) };
}

/** The workspace's policy facts an access package states (the workspace layer over the defaults). */
async function packagePolicy(db: Executor, workspaceId: string): Promise<PackagePolicy> {
  const policy = await workspacePolicy(db, workspaceId);
  return { retention_days: policy.retention_days, auto_erase_on_deprovision: policy.auto_erase_on_deprovision };
}

/**
 * What a package is built from: where to read (`db`), the request, the key of the subject
 * pseudonyms, the time it is made at, and `pause`, awaited between the pages the data is read in.
 */
export interface PackageSource {
  db: Executor;
  request: PrivacyRequestRow;
  pseudonymKey: string;
  now: Date;
  pause?: () => Promise<void>;
}

/**
 * The export package (GDPR Art. 20) for an `export` request: everything in scope about its
 * subject and linked identities. Read-only; a subject never seen gives empty categories.
 * `pause` is awaited between the pages the data is read in ({@link gatherSubjectData}).
 */
export async function exportPackage({ db, request, pseudonymKey, now, pause }: PackageSource): Promise<ExportPackage> {
  const data = await gatherSubjectData(db, request, pseudonymKey, pause ? { pause } : {});
  return buildExportPackage(packageRequest(request), data, now, await workspaceController(db, request.workspace_id));
}

/**
 * The access package (GDPR Art. 15) for an `access` request: the export package's data plus
 * purposes, recipients, retention (from the workspace policy) and source per category, naming
 * the workspace's controller as its profile stands now.
 */
export async function accessPackage({ db, request, pseudonymKey, now, pause }: PackageSource): Promise<AccessPackage> {
  const data = await gatherSubjectData(db, request, pseudonymKey, pause ? { pause } : {});
  const policy = await packagePolicy(db, request.workspace_id);
  return buildAccessPackage(packageRequest(request), data, policy, now, await workspaceController(db, request.workspace_id));
}
