import type { Executor } from '../../db/executor.js';
import { readProfileFields } from '../controllers/controller.fns.js';
import { findControllerProfile } from '../controllers/controller.repository.js';
import type { ControllerProfileFields } from '../controllers/controller.types.js';
import { findLayers } from '../policies/policy.repository.js';
import { mergePolicy } from '../policies/policy-merge.fns.js';
import type { PrivacyRequestRow } from '../request-model/request-model.js';
import { buildAccessPackage, buildExportPackage, type PackagePolicy, type PackageRequest } from './package.fns.js';
import type { AccessPackage, ExportPackage } from './package.types.js';
import { parseScope } from './scope.fns.js';
import { gatherSubjectData } from './subject-data.repository.js';

function packageRequest(row: PrivacyRequestRow): PackageRequest {
  const { id, workspace_id, subject_provider, subject_id, regulation } = row;
  return { id, workspace_id, subject_provider, subject_id, regulation, scope: parseScope(row.scope) };
}

/** The workspace's policy facts an access package states (the workspace layer over the defaults). */
async function workspacePolicy(db: Executor, workspaceId: string): Promise<PackagePolicy> {
  const workspace = (await findLayers(db, workspaceId, '')).find((layer) => layer.repository === '');
  const { policy } = mergePolicy({ workspace: workspace ? JSON.parse(workspace.settings) : null, repository: null });
  return { retention_days: policy.retention_days, auto_erase_on_deprovision: policy.auto_erase_on_deprovision };
}

/** The workspace's controller profile fields (PRODUCT §2.10), or null when none is set. */
export async function workspaceController(db: Executor, workspaceId: string): Promise<ControllerProfileFields | null> {
  const row = await findControllerProfile(db, workspaceId);
  return row ? readProfileFields(row.profile) : null;
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
  const policy = await workspacePolicy(db, request.workspace_id);
  return buildAccessPackage(packageRequest(request), data, policy, now, await workspaceController(db, request.workspace_id));
}
