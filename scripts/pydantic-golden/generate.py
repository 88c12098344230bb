#!/usr/bin/env python3
"""Generate test/golden/validation-cases.json: the 422 bodies FastAPI + Pydantic v2 would return.

FastAPI itself is not needed: this script re-creates, with real Pydantic models, the parts of
FastAPI's request pipeline that decide a validation response:

* fastapi/routing.py ``get_request_handler``: a non-empty body is ``json.loads``-ed when the
  content-type is absent or ``application/json`` / ``application/*+json`` (otherwise the raw
  bytes become the body value); a ``json.JSONDecodeError`` short-circuits into a single
  ``json_invalid`` error at ``["body", e.pos]``; any other parse failure would be a 400.
* fastapi/dependencies/utils.py ``solve_dependencies``: errors = path + query + header (+ cookie)
  param errors, then body errors, in one list.
* ``request_params_to_args`` / ``_get_multidict_value``: each param is looked up by alias
  (``QueryParams.get`` -> last repeated value wins; ``Headers.get`` -> case-insensitive, first
  value); ``None`` -> ``missing`` if required, else the default; anything else (including "")
  is validated alone with ``TypeAdapter(Annotated[type, FieldInfo]).validate_python`` (lax mode).
* ``request_body_to_args`` (single, non-embedded body): body value ``None`` (no body, empty body,
  or the JSON literal ``null``) -> ``missing`` at ``["body"]``; otherwise
  ``TypeAdapter(Model).validate_python(value, from_attributes=True)``, locs prefixed by "body".
* fastapi/_compat.py ``get_missing_field_error`` (``input`` forced to ``None``) and
  ``_regenerate_error_with_loc``; errors come from ``.errors(include_url=False)``.
* fastapi/exception_handlers.py: ``{"detail": jsonable_encoder(exc.errors())}`` with status 422,
  rendered by Starlette's JSONResponse (``allow_nan=False``, UTF-8).

Run:  python3 scripts/pydantic-golden/generate.py
"""

from __future__ import annotations

import datetime
import email.message
import re
import json
import sys
from pathlib import Path
from typing import Annotated, Any, Literal, Optional

import urllib.parse

import pydantic
from pydantic import (AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter,
                      ValidationError, model_validator)
from pydantic_core import InitErrorDetails, PydanticCustomError, PydanticKnownError

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test" / "golden" / "validation-cases.json"

# --------------------------------------------------------------------------------------------
# Schemas (field order matters: Pydantic reports errors in declaration order).
# --------------------------------------------------------------------------------------------

# Constraints Pydantic does not have, written as a FastAPI service would write them
# (docs/validation.md names the error types):


def _no_nul(value: str) -> str:
    """PostgreSQL text cannot hold U+0000: every str field refuses it, after its own constraints."""
    if "\x00" in value:
        raise PydanticCustomError("string_nul", "String should not contain a NUL character")
    return value


def _unique(items: list) -> list:
    """A list that is a set: no item twice (runs only once the list itself is valid)."""
    if len(set(items)) != len(items):
        raise PydanticCustomError("list_unique", "List should have unique items")
    return items


def _str_first(value: Any) -> Any:
    """`list[str]` checked against the keys afterwards: a non-string is `string_type` first, a
    string with a NUL `string_nul` (as every str), then an unknown key `literal_error`."""
    if not isinstance(value, str):
        raise PydanticKnownError("string_type")
    return _no_nul(value)


NoNul = AfterValidator(_no_nul)
Unique = AfterValidator(_unique)


def Str(**constraints: Any) -> Any:
    """A str field with length/pattern constraints that refuses NUL."""
    return Annotated[str, Field(**constraints), NoNul] if constraints else Annotated[str, NoNul]


# Scope keys (PRODUCT §1, §2.14): the six core keys, then every other `user.*` key of the
# data categories (the Fides default taxonomy's keys) in their file order: the order of SCOPE_KEYS in
# src/modules/data-categories/data-categories.fns.ts, and so of the `literal_error` message.
CORE_SCOPE_KEYS = ["user", "user.account", "user.contact", "user.contact.email", "user.name",
                   "user.content"]
_TAXONOMY = json.loads(
    (ROOT / "src" / "modules" / "data-categories" / "data-categories.json").read_text("utf-8"))
SCOPE_KEYS = CORE_SCOPE_KEYS + [
    c["key"] for c in _TAXONOMY["categories"]
    if (c["key"] == "user" or c["key"].startswith("user."))
    and c["key"] not in CORE_SCOPE_KEYS]

ScopeKey = Annotated[
    Literal[tuple(SCOPE_KEYS)],  # type: ignore[valid-type]
    BeforeValidator(_str_first),
]


# src/http/schemas/common.schemas.ts RFC3339_PATTERN, the same text.
RFC3339_PATTERN = (r"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):"
                   r"[0-5][0-9]:[0-5][0-9](\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$")


def _received_at(value: str) -> str:
    """`received_at` (PRODUCT §2.13): a real calendar day, not in the future, at most 365 days
    ago. A field validator raising ValueError, as a FastAPI service would write it."""
    year, month, day = (int(part) for part in value[:10].split("-"))
    try:
        datetime.date(year, month, day)
    except ValueError:
        raise ValueError("not a real calendar day") from None
    # fromisoformat (3.11) takes at most 6 fraction digits: the comparison needs no more.
    fraction = re.match(r"^(.*T[0-9:]{8})(\.[0-9]+)?(.*)$", value)
    assert fraction is not None  # the pattern has passed
    head, digits, offset = fraction.group(1), (fraction.group(2) or ".0")[1:], fraction.group(3)
    at = datetime.datetime.fromisoformat(f"{head}.{digits[:6].ljust(6, '0')}{offset.replace('Z', '+00:00')}")
    now = datetime.datetime.now(datetime.timezone.utc)
    if at > now:
        raise ValueError("received_at is in the future")
    if at < now - datetime.timedelta(days=365):
        raise ValueError("received_at is more than 365 days ago")
    return value


# PRODUCT §2.17: a `phone` identity is a phone number in E.164 once spaces, dashes, dots and
# parentheses are removed (src/modules/subject-data/request-identity.fns.ts). An after model
# validator (it needs both fields) that reports at `subject_id`, worded as pydantic-extra-types'
# PhoneNumber words its error (`value_error`, no ctx).
E164 = re.compile(r"\+[1-9][0-9]{6,14}")  # fullmatch: `$` would pass a trailing newline


def _subject_identity(model: BaseModel) -> BaseModel:
    if model.subject_provider == "phone" and not E164.fullmatch(re.sub(r"[ .()-]", "", model.subject_id)):
        raise ValidationError.from_exception_data(type(model).__name__, [InitErrorDetails(
            type=PydanticCustomError("value_error", "value is not a valid phone number"),
            loc=("subject_id",), input=model.subject_id)])
    return model


class CreatePrivacyRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", arbitrary_types_allowed=True)

    request_type: Str(pattern=r"^(access|export|correction|deletion)$")
    scope: Annotated[list[ScopeKey], Field(min_length=1, max_length=20)]
    subject_id: Str(min_length=1, max_length=300)
    subject_provider: Str(min_length=1, max_length=100)
    workspace_id: Str(min_length=1, max_length=200)
    client_request_id: Str(min_length=8, max_length=200)
    intake_ref: Str(min_length=1, max_length=1100)
    received_at: Annotated[str, Field(pattern=RFC3339_PATTERN), NoNul, AfterValidator(_received_at)] = None
    # PRODUCT §2.15: where the person is told of the request's progress (the controller profile's pattern).
    notify_email: Str(min_length=3, max_length=254,
                      pattern=r'^[^\x00-\x20@"<>()\[\],;:\\]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})+$') = None

    @model_validator(mode="after")
    def _identity(self) -> "CreatePrivacyRequest":
        return _subject_identity(self)


def _calendar_day(value: str) -> str:
    """A policy's `holidays` item (PRODUCT §2.18): `YYYY-MM-DD` (the pattern has passed) naming a
    real calendar day, an AfterValidator raising ValueError."""
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        raise ValueError("not a real calendar day") from None
    return value


CalendarDay = Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), NoNul,
                        AfterValidator(_calendar_day)]


class _Inherit:
    """Default for PolicyLayer fields: absent means "inherit". Never validated, so an explicit
    JSON null still fails with the field's own type error (the annotations are not Optional)."""

    def __repr__(self) -> str:
        return "INHERIT"


INHERIT: Any = _Inherit()


class PolicyLayer(BaseModel):
    # extra="forbid": a PUT replaces the layer, so a misspelt field must not pass as "inherit".
    model_config = ConfigDict(strict=True, extra="forbid", arbitrary_types_allowed=True)

    processing_allowed: bool = INHERIT
    retention_days: Annotated[int, Field(ge=1, le=3650)] = INHERIT
    author_identity: Literal["full", "pseudonymous", "none"] = INHERIT
    excluded_paths: Annotated[
        list[Str(min_length=1, max_length=500)], Field(max_length=100), Unique
    ] = INHERIT
    regulations: Annotated[
        list[Literal["gdpr", "ccpa"]], Field(min_length=1, max_length=2), Unique
    ] = INHERIT
    require_approval: bool = INHERIT
    auto_erase_on_deprovision: bool = INHERIT
    confirm_no_data: bool = INHERIT
    holidays: Annotated[list[CalendarDay], Field(max_length=200), Unique] = INHERIT
    repeat_window_days: Annotated[int, Field(ge=0, le=365)] = INHERIT
    review_packages: bool = INHERIT


def _opt_out(model: BaseModel) -> BaseModel:
    """An opt-out (PRODUCT §2.18): the subject's identity, then an opt_in only with source "api"
    (src/modules/opt-outs/opt-out.fns.ts `optInSourceProblem`): a value_error at `source`."""
    _subject_identity(model)
    if model.choice == "opt_in" and model.source != "api":
        message = (f'an opt_in is accepted only with source "api" (an operator\'s, audited); '
                   f'not from "{model.source}"')
        raise ValidationError.from_exception_data(type(model).__name__, [InitErrorDetails(
            type=PydanticCustomError("value_error", message), loc=("source",), input=model.source)])
    return model


class CreateOptOut(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", arbitrary_types_allowed=True)

    workspace_id: Str(min_length=1, max_length=200)
    subject_provider: Str(min_length=1, max_length=100)
    subject_id: Str(min_length=1, max_length=300)
    kind: Literal["sale_sharing", "sensitive_use", "direct_marketing"]
    choice: Literal["opt_out", "opt_in"]
    source: Literal["form", "gpc", "agent", "api"]
    client_request_id: Str(min_length=8, max_length=200)
    received_at: Annotated[str, Field(pattern=RFC3339_PATTERN), NoNul, AfterValidator(_received_at)] = None

    @model_validator(mode="after")
    def _rules(self) -> "CreateOptOut":
        return _opt_out(self)


# Controller profile (PRODUCT §2.10). The e-mail address and the URLs are plain string patterns
# (not EmailStr/HttpUrl, whose error texts depend on the email-validator package and on URL
# parsing details): src/http/schemas/controller.schemas.ts holds the same patterns.
EMAIL_PATTERN = r'^[^\x00-\x20@"<>()\[\],;:\\]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})+$'
# A name people read (assignee, controller name): no control character (issue 33 item 4).
NAME_PATTERN = r'^[^\x00-\x1F\x7F-\x9F]*$'
HTTP_URL_PATTERN = r'^https?://[^\x00-\x20"<>\\/?#@]+([/?#][^\x00-\x20"<>\\]*)?$'


class SupervisoryAuthority(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")

    name: Str(min_length=1, max_length=200)
    url: Str(min_length=1, max_length=2000, pattern=HTTP_URL_PATTERN)


class ControllerProfile(BaseModel):
    # extra="forbid": a PUT replaces the profile (as for policy layers). Optional fields default
    # to None without being Optional: an explicit null is a string_type / model error.
    model_config = ConfigDict(strict=True, extra="forbid")

    name: Str(min_length=1, max_length=200, pattern=NAME_PATTERN)
    contact_email: Str(min_length=3, max_length=254, pattern=EMAIL_PATTERN)
    dpo_contact: Str(min_length=1, max_length=500) = None
    representative: Str(min_length=1, max_length=500) = None
    supervisory_authority: SupervisoryAuthority = None
    privacy_notice_url: Str(min_length=1, max_length=2000, pattern=HTTP_URL_PATTERN) = None


RequestTypeItem = Annotated[
    Literal["access", "export", "correction", "deletion"],
    BeforeValidator(_str_first),
]

# PRODUCT §2.18: a data system may also name the opt-out kinds (webhook and manual systems only:
# a database system naming one is the service's 422, after this model).
SystemRequestTypeItem = Annotated[
    Literal["access", "export", "correction", "deletion",
            "opt_out_sale_sharing", "limit_sensitive_use", "object_direct_marketing"],
    BeforeValidator(_str_first),
]


class Connection(BaseModel):
    # Issue 33 item 5: no key is ignored unawares (an unknown one is extra_forbidden).
    model_config = ConfigDict(strict=True, extra="forbid")

    url: Str(min_length=1, max_length=2000)
    sslrootcert: Str(min_length=1, max_length=20000) = INHERIT


# One declared statement of a data system (purposes, recipients, retention, source): not blank.
Statement = Str(min_length=1, max_length=500, pattern=r"\S")


class CreateDataSystem(BaseModel):
    """`POST /api/v1/data-systems` (PRODUCT §2.9). Optional fields absent = not set (an explicit
    null is the field's own type error, as for PolicyLayer)."""

    model_config = ConfigDict(strict=True, extra="ignore", arbitrary_types_allowed=True)

    workspace_id: Str(min_length=1, max_length=200)
    key: Str(pattern=r"^[a-z0-9][a-z0-9-]{0,62}$")
    name: Str(min_length=1, max_length=200)
    # PRODUCT §2.14: the kind decides which of the fields below are needed; that rule, the
    # dataset's checks and the connection's host are the service's 422s (after this model), like
    # an endpoint_id of another workspace. `connection` is write-only: the service shows
    # "[redacted]" as its input, so no golden case puts an error inside it.
    kind: Literal["webhook", "manual", "postgres", "mysql"] = INHERIT
    categories: Annotated[list[ScopeKey], Field(min_length=1, max_length=20)] = INHERIT
    request_types: Annotated[list[SystemRequestTypeItem], Field(min_length=1, max_length=7)] = INHERIT
    endpoint_id: Str(min_length=1, max_length=40) = INHERIT
    due_days: Annotated[int, Field(ge=1, le=3650)] = INHERIT
    connection: Connection = INHERIT
    dataset: Any = INHERIT
    # PRODUCT §2.17: the fides_key of the dataset to take from a Fides file holding several.
    dataset_key: Str(min_length=1, max_length=200) = INHERIT
    # PRODUCT §2.17: what the controller declares about the system's processing, in plain words.
    purposes: Annotated[list[Statement], Field(min_length=1, max_length=20)] = INHERIT
    recipients: Annotated[list[Statement], Field(min_length=1, max_length=20)] = INHERIT
    retention: Annotated[list[Statement], Field(min_length=1, max_length=20)] = INHERIT
    source: Annotated[list[Statement], Field(min_length=1, max_length=20)] = INHERIT
    # PRODUCT §2.18, 11 CCR §7026(f)(2): a third party the data was sold or shared to.
    third_party: bool = INHERIT


class KeptRecord(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")

    category: Str(min_length=1, max_length=100)
    reason: Str(min_length=1, max_length=500)


class TaskResult(BaseModel):
    """`POST /api/v1/data-tasks/{id}/result` (PRODUCT §2.9)."""

    model_config = ConfigDict(strict=True, extra="ignore", arbitrary_types_allowed=True)

    outcome: Literal["completed", "failed", "not_applicable"]
    records: dict[str, Annotated[int, Field(ge=0)]] = INHERIT
    data: dict[str, Any] = INHERIT
    erased: dict[str, Annotated[int, Field(ge=0)]] = INHERIT
    kept: Annotated[list[KeptRecord], Field(max_length=50)] = INHERIT
    note: Str(max_length=2000) = INHERIT
    delivered_separately: bool = INHERIT


# src/modules/data-systems/data-task-result.fns.ts ANSWER_NEEDED.
ANSWER_NEEDED = ("a completed access or export result carries data or records (counts, zeros included), "
                 "or delivered_separately: true when the answer reaches the person another way")


class PackageTaskResult(TaskResult):
    """The same body posted to an access/export task (PRODUCT §2.13): a completed result says what
    the system holds. The service knows the task's type only once it has read the task, so these
    cases run against a real access task (test/integration/data-systems/system-answers.test.ts),
    not in the generic golden test."""

    @model_validator(mode="after")
    def _answer(self) -> "PackageTaskResult":
        if (self.outcome == "completed" and self.data is INHERIT and self.records is INHERIT
                and self.delivered_separately is not True):
            raise ValueError(ANSWER_NEEDED)
        return self


# The officer's day (PRODUCT §2.16): src/http/schemas/officer.schemas.ts.
class AssignBody(BaseModel):
    assignee: Optional[Str(min_length=1, max_length=300, pattern=NAME_PATTERN)]
    reason: Str(min_length=1, max_length=1000) = None


class NoteBody(BaseModel):
    text: Str(min_length=1, max_length=4000)


class BulkBody(BaseModel):
    action: Literal["approve", "reject", "cancel", "extend", "assign"]
    ids: Annotated[list[Str(min_length=1, max_length=40)], Field(min_length=1, max_length=100)]
    reason: Str(min_length=1, max_length=1000) = None
    assignee: Optional[Str(min_length=1, max_length=300, pattern=NAME_PATTERN)] = INHERIT

    @model_validator(mode="after")
    def _needs(self) -> "BulkBody":
        if self.action in ("reject", "cancel", "extend") and self.reason is None:
            raise ValueError(f"{self.action} needs a reason")
        if self.action == "assign" and self.assignee is INHERIT:
            raise ValueError("assign needs an assignee (null to unassign)")
        return self


# src/http/schemas/officer.schemas.ts DAY_OR_TIME_PATTERN.
DAY_OR_TIME_PATTERN = (r"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):"
                       r"[0-5][0-9]:[0-5][0-9](\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9]))?$")
class RepointIdentity(BaseModel):
    """`POST /api/v1/privacy/requests/{id}/identity` (PRODUCT §2.13)."""

    model_config = ConfigDict(strict=True, extra="ignore", arbitrary_types_allowed=True)

    subject_provider: Str(min_length=1, max_length=100)
    subject_id: Str(min_length=1, max_length=300)
    reason: Str(min_length=1, max_length=1000)

    @model_validator(mode="after")
    def _identity(self) -> "RepointIdentity":
        return _subject_identity(self)


class ConfirmNoData(BaseModel):
    """`POST /api/v1/privacy/requests/{id}/confirm-no-data` (PRODUCT §2.13)."""

    model_config = ConfigDict(strict=True, extra="ignore", arbitrary_types_allowed=True)

    reason: Str(min_length=1, max_length=1000)


class ProceedWithRepeat(BaseModel):
    """`POST /api/v1/privacy/requests/{id}/proceed` (PRODUCT §2.20)."""

    model_config = ConfigDict(strict=True, extra="ignore", arbitrary_types_allowed=True)

    reason: Str(min_length=1, max_length=1000)


class WithholdValue(BaseModel):
    """`POST /api/v1/privacy/requests/{id}/package/redactions` (PRODUCT §2.20)."""

    model_config = ConfigDict(strict=True, extra="forbid", arbitrary_types_allowed=True)

    path: Str(min_length=1, max_length=2000)
    reason: Str(min_length=1, max_length=500)


class ReleasePackage(BaseModel):
    """`POST /api/v1/privacy/requests/{id}/release` (PRODUCT §2.20): `body: ReleasePackage | None = None`."""

    model_config = ConfigDict(strict=True, extra="forbid", arbitrary_types_allowed=True)

    reason: Str(min_length=1, max_length=1000) = INHERIT


class Param:
    """One FastAPI Query()/Header() parameter: validated alone, in lax mode."""

    def __init__(self, where: str, name: str, annotation: Any, *, required: bool, default: Any = None,
                 multi: bool = False):
        self.where = where  # "path" | "query" | "header"
        # A list query parameter (`list[str] = Query()`): every value of a repeated key.
        self.multi = multi
        # FastAPI Header(): alias = python name with "_" -> "-" (convert_underscores=True);
        # Starlette Headers lower-case names, so lookups are case-insensitive.
        self.alias = name.replace("_", "-") if where == "header" else name
        self.adapter = TypeAdapter(annotation)
        self.required = required
        self.default = default



ROUTES: dict[str, dict[str, Any]] = {
    "create": {
        "method": "POST",
        "path": "/api/v1/privacy/requests",
        "params": [
            Param("header", "idempotency_key", Str(min_length=8, max_length=200), required=True),
        ],
        "body": CreatePrivacyRequest,
    },
    "list": {
        "method": "GET",
        "path": "/api/v1/privacy/requests",
        "params": [
            Param("query", "workspace_id",
                  Optional[Annotated[list[Str(min_length=1, max_length=200)],
                                     Field(min_length=1, max_length=50)]],
                  required=False, default=None, multi=True),
            Param("query", "status", Optional[list[Literal[
                "pending_approval", "queued", "processing", "completed", "action_required",
                "failed", "rejected", "canceled", "open"]]], required=False, default=None, multi=True),
            Param("query", "request_type",
                  Optional[Literal["access", "export", "correction", "deletion"]],
                  required=False, default=None),
            Param("query", "overdue", Optional[bool], required=False, default=None),
            Param("query", "subject_id", Optional[Str(min_length=1, max_length=300)],
                  required=False, default=None),
            Param("query", "subject_provider", Optional[Str(min_length=1, max_length=100)],
                  required=False, default=None),
            Param("query", "due_before", Optional[Str(pattern=RFC3339_PATTERN)],
                  required=False, default=None),
            Param("query", "due_within_days", Optional[Annotated[int, Field(ge=0, le=3650)]],
                  required=False, default=None),
            Param("query", "sort", Literal["created_at", "due_at"], required=False,
                  default="created_at"),
            Param("query", "cursor", Optional[Str(max_length=500)], required=False, default=None),
            Param("query", "limit", Annotated[int, Field(ge=1, le=100)],
                  required=False, default=50),
            Param("query", "assignee", Optional[Str(min_length=1, max_length=300)],
                  required=False, default=None),
            Param("query", "format", Literal["json", "csv"], required=False, default="json"),
            Param("query", "agent_id", Optional[Str(pattern=r"^[A-Za-z0-9_-]{1,100}$")],
                  required=False, default=None),
        ],
        "body": None,
    },
    "stats": {
        "method": "GET",
        "path": "/api/v1/privacy/requests/stats",
        "params": [
            Param("query", "workspace_id",
                  Optional[Annotated[list[Str(min_length=1, max_length=200)],
                                     Field(min_length=1, max_length=50)]],
                  required=False, default=None, multi=True),
        ],
        "body": None,
    },
    "report": {
        "method": "GET",
        "path": "/api/v1/reports/requests",
        "params": [
            Param("query", "workspace_id",
                  Optional[Annotated[list[Str(min_length=1, max_length=200)],
                                     Field(min_length=1, max_length=50)]],
                  required=False, default=None, multi=True),
            Param("query", "from", Optional[Str(pattern=DAY_OR_TIME_PATTERN)], required=False, default=None),
            Param("query", "to", Optional[Str(pattern=DAY_OR_TIME_PATTERN)], required=False, default=None),
            Param("query", "format", Literal["json", "csv"], required=False, default="json"),
        ],
        "body": None,
    },
    "assign": {
        "method": "POST",
        "path": "/api/v1/privacy/requests/{id}/assign",
        "params": [Param("path", "id", Str(min_length=1, max_length=40), required=True)],
        "body": AssignBody,
    },
    "note": {
        "method": "POST",
        "path": "/api/v1/privacy/requests/{id}/notes",
        "params": [Param("path", "id", Str(min_length=1, max_length=40), required=True)],
        "body": NoteBody,
    },
    "bulk": {
        "method": "POST",
        "path": "/api/v1/privacy/requests/bulk",
        "params": [],
        "body": BulkBody,
    },
    "audit_list": {
        "method": "GET",
        "path": "/api/v1/audit-events",
        "params": [
            Param("query", "workspace_id", Optional[Str(min_length=1, max_length=200)],
                  required=False, default=None),
            Param("query", "target_type",
                  Optional[Str(min_length=1, max_length=50, pattern=r"^[a-z][a-z_]*$")],
                  required=False, default=None),
            Param("query", "target_id", Optional[Str(min_length=1, max_length=800)],
                  required=False, default=None),
            Param("query", "action",
                  Optional[Str(min_length=1, max_length=100, pattern=r"^[a-z][a-z_.]*$")],
                  required=False, default=None),
            Param("query", "cursor", Optional[Str(max_length=500)], required=False, default=None),
            Param("query", "limit", Annotated[int, Field(ge=1, le=100)],
                  required=False, default=50),
        ],
        "body": None,
    },
    "effective": {
        "method": "GET",
        "path": "/api/v1/policies/effective",
        "params": [
            Param("query", "workspace_id", Str(min_length=1, max_length=200), required=True),
            Param("query", "repository", Str(min_length=1, max_length=500), required=True),
        ],
        "body": None,
    },
    "policy_put": {
        "method": "PUT",
        "path": "/api/v1/policies/workspaces/acme",
        "params": [],
        "body": PolicyLayer,
    },
    "policy_put_repository": {
        "method": "PUT",
        "path": "/api/v1/policies/workspaces/{workspace_id}/repositories/{repository}",
        "params": [
            Param("path", "workspace_id", Str(min_length=1, max_length=200), required=True),
            Param("path", "repository", Str(min_length=1, max_length=500), required=True),
        ],
        "body": PolicyLayer,
    },
    "controller_put": {
        "method": "PUT",
        "path": "/api/v1/workspaces/{workspace_id}/controller",
        "params": [
            Param("path", "workspace_id", Str(min_length=1, max_length=200), required=True),
        ],
        "body": ControllerProfile,
    },
    "system_create": {
        "method": "POST",
        "path": "/api/v1/data-systems",
        "params": [],
        "body": CreateDataSystem,
    },
    "task_result": {
        "method": "POST",
        "path": "/api/v1/data-tasks/{id}/result",
        "params": [Param("path", "id", Str(min_length=1, max_length=40), required=True)],
        "body": TaskResult,
    },
    "task_result_package": {
        "method": "POST",
        "path": "/api/v1/data-tasks/{id}/result",
        "params": [Param("path", "id", Str(min_length=1, max_length=40), required=True)],
        "body": PackageTaskResult,
    },
    "request_identity": {
        "method": "POST",
        "path": "/api/v1/privacy/requests/{id}/identity",
        "params": [Param("path", "id", Str(min_length=1, max_length=40), required=True)],
        "body": RepointIdentity,
    },
    "request_confirm_no_data": {
        "method": "POST",
        "path": "/api/v1/privacy/requests/{id}/confirm-no-data",
        "params": [Param("path", "id", Str(min_length=1, max_length=40), required=True)],
        "body": ConfirmNoData,
    },
    "request_proceed": {
        "method": "POST",
        "path": "/api/v1/privacy/requests/{id}/proceed",
        "params": [Param("path", "id", Str(min_length=1, max_length=40), required=True)],
        "body": ProceedWithRepeat,
    },
    "request_redaction": {
        "method": "POST",
        "path": "/api/v1/privacy/requests/{id}/package/redactions",
        "params": [Param("path", "id", Str(min_length=1, max_length=40), required=True)],
        "body": WithholdValue,
    },
    "request_release": {
        "method": "POST",
        "path": "/api/v1/privacy/requests/{id}/release",
        "params": [Param("path", "id", Str(min_length=1, max_length=40), required=True)],
        "body": ReleasePackage,
        "optional_body": True,
    },
    "opt_out_create": {
        "method": "POST",
        "path": "/api/v1/privacy/opt-outs",
        "params": [
            Param("header", "idempotency_key", Str(min_length=8, max_length=200), required=True),
        ],
        "body": CreateOptOut,
    },
    "request_get": {
        "method": "GET",
        "path": "/api/v1/privacy/requests/{id}",
        "params": [Param("path", "id", Str(min_length=1, max_length=40), required=True)],
        "body": None,
    },
}

BODY_ADAPTERS = {name: TypeAdapter(r["body"]) for name, r in ROUTES.items() if r["body"]}

# --------------------------------------------------------------------------------------------
# FastAPI emulation
# --------------------------------------------------------------------------------------------


def jsonable(obj: Any) -> Any:
    """The subset of fastapi.encoders.jsonable_encoder reachable from validation errors."""
    if isinstance(obj, (str, int, float, type(None))):  # bool is an int
        return obj
    if isinstance(obj, dict):
        # sqlalchemy_safe=True (the default): string keys starting with "_sa" are dropped.
        return {jsonable(k): jsonable(v) for k, v in obj.items()
                if not (isinstance(k, str) and k.startswith("_sa"))}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, bytes):
        return obj.decode()
    if isinstance(obj, BaseException):
        # jsonable_encoder: dict(obj) fails, then vars(obj): a ValueError in ctx renders as {}.
        return jsonable(vars(obj))
    raise TypeError(f"unexpected value in error: {obj!r}")


def missing(loc: tuple) -> dict:
    return {"type": "missing", "loc": loc, "msg": "Field required", "input": None}


def with_prefix(errors: list[dict], prefix: tuple) -> list[dict]:
    return [{**err, "loc": prefix + tuple(err.get("loc", ()))} for err in errors]


def query_get(query: dict[str, Any], key: str) -> Optional[str]:
    # Starlette ImmutableMultiDict.get: the last value of a repeated key wins.
    if key not in query:
        return None
    value = query[key]
    if isinstance(value, list):
        return value[-1] if value else None
    return value


def query_getlist(query: dict[str, Any], key: str) -> Optional[list[str]]:
    # Starlette ImmutableMultiDict.getlist: every value of a repeated key, in order.
    if key not in query:
        return None
    value = query[key]
    return list(value) if isinstance(value, list) else [value]


def header_get(headers: dict[str, str], key: str) -> Optional[str]:
    for name, value in headers.items():
        if name.lower() == key.lower():
            return value
    return None


def is_json_content_type(value: Optional[str]) -> bool:
    if not value:
        return True
    message = email.message.Message()
    message["content-type"] = value
    if message.get_content_maintype() == "application":
        subtype = message.get_content_subtype()
        return subtype == "json" or subtype.endswith("+json")
    return False


def emulate(route: str, path: dict, query: dict, headers: dict, body: Optional[str]) -> dict:
    spec = ROUTES[route]
    body_value: Any = None
    if spec["body"] is not None and body:
        body_bytes = body.encode("utf-8")
        if is_json_content_type(header_get(headers, "content-type")):
            try:
                body_value = json.loads(body_bytes)
            except json.JSONDecodeError as e:
                errors = [{"type": "json_invalid", "loc": ("body", e.pos), "msg": "JSON decode error",
                           "input": {}, "ctx": {"error": e.msg}}]
                return respond(errors)
        else:
            body_value = body_bytes

    errors: list[dict] = []
    for where in ("path", "query", "header"):
        for p in spec["params"]:
            if p.where != where:
                continue
            if where == "path":
                raw = path.get(p.alias)  # Starlette: percent-decoded, never absent on a matched route
            else:
                if where == "header":
                    raw = header_get(headers, p.alias)
                else:
                    raw = query_getlist(query, p.alias) if p.multi else query_get(query, p.alias)
            loc = (where, p.alias)
            if raw is None:
                if p.required:
                    errors.append(missing(loc))
                continue
            try:
                p.adapter.validate_python(raw)
            except ValidationError as exc:
                errors.extend(with_prefix(exc.errors(include_url=False), loc))

    if spec["body"] is not None:
        if body_value is None and spec.get("optional_body"):
            pass  # `body: Model | None = None`: absent (or null) is no body
        elif body_value is None:
            errors.append(missing(("body",)))
        else:
            try:
                BODY_ADAPTERS[route].validate_python(body_value, from_attributes=True)
            except ValidationError as exc:
                errors.extend(with_prefix(exc.errors(include_url=False), ("body",)))
    if not errors:
        return {"status": "valid"}
    return respond(errors)


def respond(errors: list[dict]) -> dict:
    content = {"detail": jsonable(errors)}
    # Starlette JSONResponse.render: would raise (-> 500, not 422) on NaN/inf or lone surrogates.
    json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
    return {"status": 422, "body": content}


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------

CASES: list[dict] = []
JSON_CT = {"content-type": "application/json"}
IDEM = "idem-7f3c9a2e-2024-0001"

EMOJI = "\U0001F600"  # 1 code point, 2 UTF-16 units, 4 UTF-8 bytes
COMBINING_E = "e\u0301"  # 2 code points, 1 grapheme
CJK = "\u65e5"  # 1 code point, 1 UTF-16 unit, 3 UTF-8 bytes
FAMILY = "\U0001F469\u200d\U0001F469\u200d\U0001F467"  # 5 code points, 8 UTF-16 units


def add(name: str, route: str, *, query: Optional[dict] = None, headers: Optional[dict] = None,
        body: Optional[str] = None, path: Optional[dict] = None) -> None:
    spec = ROUTES[route]
    path = path or {}
    query = query or {}
    headers = dict(headers or {})
    for k, v in headers.items():
        assert v.isascii(), "Starlette decodes header values as latin-1; keep them ASCII"
    CASES.append({
        "name": name,
        "route": route,
        "method": spec["method"],
        # Path parameters are sent percent-encoded (every byte but unreserved ones).
        "path": spec["path"].format(**{k: urllib.parse.quote(v, safe="") for k, v in path.items()}),
        "query": query,
        "headers": headers,
        "body": body,
        "expected": emulate(route, path, query, headers, body),
    })


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def pad(prefix: str, n: int, fill: str = "x") -> str:
    s = prefix + fill * (n - len(prefix))
    assert len(s) == n
    return s


VALID_CREATE = {
    "request_type": "access",
    "scope": ["user.account", "user.contact.email"],
    "subject_id": "583231",
    "subject_provider": "github",
    "workspace_id": "acme",
    "client_request_id": "req-20240611-0001",
    "intake_ref": "https://support.example.com/tickets/4821",
}
ALL_SCOPES = ["user", "user.account", "user.contact", "user.contact.email", "user.name",
              "user.content"]


def create(name: str, body: Any, *, raw: Optional[str] = None, headers: Optional[dict] = None,
           idem: Optional[str] = IDEM) -> None:
    h = dict(JSON_CT)
    if idem is not None:
        h["idempotency-key"] = idem
    if headers is not None:
        h = headers
    add("create: " + name, "create", headers=h, body=raw if raw is not None else dumps(body))


DROP = object()


def c(**changes: Any) -> dict:
    """VALID_CREATE with fields replaced; a value of DROP removes the field."""
    out = dict(VALID_CREATE)
    for k, v in changes.items():
        if v is DROP:
            out.pop(k, None)
        else:
            out[k] = v
    return out


def build_create_cases() -> None:
    # ---- valid
    create("valid minimal", VALID_CREATE)
    create("valid deletion with every scope key", c(request_type="deletion", scope=ALL_SCOPES))
    create("valid every field exactly at its max length (scope 20 items, key 200)", {
        "request_type": "correction",
        "scope": (ALL_SCOPES * 4)[:20],
        "subject_id": "5" * 300,
        "subject_provider": pad("github-enterprise-", 100),
        "workspace_id": pad("acme-", 200),
        "client_request_id": pad("req-", 200),
        "intake_ref": pad("https://support.example.com/tickets/4821?note=", 1100),
    }, idem=pad("idem-", 200))
    create("valid every field exactly at its min length (key 8)", {
        "request_type": "export", "scope": ["user"], "subject_id": "5", "subject_provider": "g",
        "workspace_id": "a", "client_request_id": "req-0001", "intake_ref": "t",
    }, idem="idem-001")
    create("valid unknown extra fields are ignored",
           c(priority="high", notes={"a": [1, 2]}, scope_extra=None, status="queued"))
    create("valid duplicate key, last value wins",
           None, raw='{"request_type": "nope", ' + dumps(VALID_CREATE)[1:])
    create("valid duplicate scope entries are allowed", c(scope=["user", "user", "user.name"]))
    create("valid astral chars counted as code points (8 emoji client_request_id, 300 emoji subject)",
           c(client_request_id=EMOJI * 8, subject_id=EMOJI * 300))
    create("valid combining marks count per code point (4 graphemes = 8 code points)",
           c(client_request_id=COMBINING_E * 4))
    create("valid escaped surrogate pair decodes to one code point (x8)",
           None, raw=dumps(c(client_request_id="@@")).replace('"@@"', '"' + "\\ud83d\\ude00" * 8 + '"'))
    create("valid pretty-printed body with CRLF and tabs", None,
           raw=json.dumps(VALID_CREATE, indent="\t").replace("\n", "\r\n"))
    create("valid no content-type header still parses JSON", VALID_CREATE,
           headers={"idempotency-key": IDEM})
    create("valid content-type with charset", VALID_CREATE,
           headers={"content-type": "application/json; charset=utf-8", "idempotency-key": IDEM})
    create("valid content-type application/*+json", VALID_CREATE,
           headers={"content-type": "application/vnd.api+json", "idempotency-key": IDEM})
    create("valid header name in mixed case", VALID_CREATE,
           headers={"Content-Type": "application/json", "Idempotency-Key": IDEM})
    create("valid UTF-8 BOM before the JSON (json.loads on bytes strips it)", None,
           raw="\ufeff" + dumps(VALID_CREATE))
    create("valid __proto__ key is just an unknown field", None,
           raw='{"__proto__": {"polluted": true}, ' + dumps(VALID_CREATE)[1:])

    # ---- subject_provider "phone" (PRODUCT §2.17): E.164 once punctuation is removed
    create("valid phone E.164", c(subject_provider="phone", subject_id="+442079460958"))
    create("valid phone with spaces, dashes, dots and parentheses", c(subject_provider="phone",
                                                                      subject_id="+1 (415) 555-01.23"))
    create("valid phone 15 digits", c(subject_provider="phone", subject_id="+" + "4" * 15))
    for label, value in [("without +", "004930123456"), ("leading 0 after +", "+0301234567"),
                         ("letters", "+49 30 CALL-NOW"), ("too short", "+49123"),
                         ("16 digits", "+" + "4" * 16), ("slash", "+49/30/1234567"), ("empty after +", "+"),
                         ("trailing newline", "+4930123456\n"), ("tab inside", "+49\t30123456")]:
        create(f"phone {label}", c(subject_provider="phone", subject_id=value))
    create("phone check waits for the other fields (workspace_id empty)",
           c(subject_provider="phone", subject_id="12", workspace_id=""))
    create("phone check after a header error (body and header both reported)",
           c(subject_provider="phone", subject_id="12"), idem="short")
    create("provider Phone (other case) is any provider", c(subject_provider="Phone", subject_id="12"))

    # ---- request_type
    for label, value in [("uppercase", "ACCESS"), ("trailing space", "access "),
                         ("trailing newline ($ does not match before \\n)", "access\n"),
                         ("empty", ""), ("unknown", "erasure"), ("number", 5), ("boolean", True),
                         ("null", None), ("array", ["access"]), ("object", {"type": "access"})]:
        create(f"request_type {label}", c(request_type=value))

    # ---- scope
    create("scope empty list", c(scope=[]))
    create("scope exactly 20 valid items", c(scope=["user"] * 20))
    create("scope 21 valid items", c(scope=(ALL_SCOPES * 4)[:21]))
    create("scope 21 items with unknown keys mixed in (only too_long)",
           c(scope=["user", "bogus", *(["user.name"] * 17), "user.email", 7]))
    create("scope item unknown at index 0", c(scope=["user.email"]))
    create("valid scope with taxonomy keys beyond the six",
           c(scope=["user.contact.address.city", "user.financial", "user.unique_id.pseudonymous"]))
    create("scope item system.* is not a scope key", c(scope=["user", "system.operations"]))
    create("scope items unknown at indexes 0, 7 and 19 of 20",
           c(scope=["users", *["user"] * 6, "USER", *["user.name"] * 11, "user.contact.phone"]))
    create("scope items of wrong JSON types", c(scope=["user", 5, None, ["user"], {"k": "user"}, True]))
    create("scope items: type checked first (string_type), then the key (literal_error)",
           c(scope=[7, "user.email", "user", None, "USER", 1.5]))
    create("scope item float and unknown key only", c(scope=["bogus", 2.0]))
    create("scope item with surrounding whitespace", c(scope=[" user"]))
    create("scope is a string", c(scope="user"))
    create("scope is null", c(scope=None))
    create("scope is an object", c(scope={"0": "user"}))
    create("scope is a number", c(scope=1))

    # ---- string fields: bounds and wrong types
    str_fields = [("subject_id", 1, 300, "5"), ("subject_provider", 1, 100, "g"),
                  ("workspace_id", 1, 200, "a"), ("client_request_id", 8, 200, "r"),
                  ("intake_ref", 1, 1100, "t")]
    for field, lo, hi, ch in str_fields:
        create(f"{field} below min ({lo - 1})", c(**{field: ch * (lo - 1)}))
        create(f"{field} above max ({hi + 1})", c(**{field: ch * (hi + 1)}))
    create("client_request_id 7 chars", c(client_request_id="req-001"))
    create("client_request_id abc", c(client_request_id="abc"))
    create("subject_id number", c(subject_id=583231))
    create("subject_id float", c(subject_id=583231.0))
    create("subject_id boolean", c(subject_id=False))
    create("subject_id null", c(subject_id=None))
    create("subject_id array", c(subject_id=["583231"]))
    create("subject_id object", c(subject_id={"id": "583231"}))
    create("workspace_id whitespace only is long enough", c(workspace_id=" "))

    # ---- received_at (PRODUCT §2.13): only dates far from any day the tests run on, so the
    # goldens stay true (a valid received_at is checked by the filing tests, against the clock)
    create("received_at in the far future", c(received_at="2999-01-01T00:00:00Z"))
    create("received_at years ago (more than 365 days)", c(received_at="2001-02-03T04:05:06.789+02:00"))
    create("received_at not a real day", c(received_at="2026-02-30T10:00:00Z"))
    create("received_at a date without a time", c(received_at="2026-11-20"))
    create("received_at without an offset", c(received_at="2026-11-20T10:00:00"))
    create("received_at a number (epoch seconds)", c(received_at=1763632800))
    # ---- notify_email (PRODUCT §2.15)
    create("notify_email not an address", c(notify_email="not an address"))
    create("notify_email a number", c(notify_email=42))
    create("received_at null", c(received_at=None))
    create("received_at empty", c(received_at=""))
    create("received_at with a NUL", c(received_at="2999-01-01T00:00:00Z\u0000"))
    create("received_at in the future and subject_id missing: both, in field order",
           c(subject_id=DROP, received_at="2999-12-31T23:59:59.999999999Z"))

    # ---- NUL (U+0000): refused in every string after its own constraints (PostgreSQL text)
    create("subject_id with a NUL", c(subject_id="5832\u000031"))
    create("workspace_id only a NUL", c(workspace_id="\u0000"))
    create("every string field with a NUL, scope item too",
           c(request_type="access\u0000", scope=["user\u0000"], subject_id="\u0000",
             subject_provider="git\u0000hub", workspace_id="acme\u0000", client_request_id="req-\u0000-0001",
             intake_ref="https://x.example/\u0000"))
    create("client_request_id 7 chars with a NUL (too_short first)", c(client_request_id="req\u0000001"))
    create("intake_ref 1101 chars with a NUL (too_long first)", c(intake_ref="\u0000" * 1101))
    create("NUL in an unknown field is ignored", c(note="a\u0000b"))
    create("NUL escaped in raw JSON", None, raw=dumps(c(subject_id="@@")).replace('"@@"', '"58\\u00003"'))

    # ---- unicode at length boundaries
    create("client_request_id 7 emoji (14 UTF-16 units) is too short", c(client_request_id=EMOJI * 7))
    create("client_request_id 7 code points: 3 combining pairs + 1", c(client_request_id=COMBINING_E * 3 + "x"))
    create("subject_provider 100 emoji ok, workspace_id 201 CJK too long",
           c(subject_provider=EMOJI * 100, workspace_id=CJK * 201))
    create("subject_provider 101 emoji", c(subject_provider=EMOJI * 101))
    create("intake_ref 1100 code points of mixed emoji/combining/ZWJ ok",
           c(intake_ref=pad(FAMILY * 20 + COMBINING_E * 100, 1100, EMOJI)))
    create("intake_ref 1101 code points of emoji", c(intake_ref=EMOJI * 1101))
    create("workspace_id 200 CJK ok, subject_id 301 ZWJ-family code points too long",
           c(workspace_id=CJK * 200, subject_id=(FAMILY * 61)[:301]))
    create("client_request_id 7 escaped surrogate pairs", None,
           raw=dumps(c(client_request_id="@@")).replace('"@@"', '"' + "\\ud83d\\ude00" * 7 + '"'))

    # ---- missing fields
    create("missing one field (scope)", c(scope=DROP))
    create("missing several fields", c(subject_id=DROP, workspace_id=DROP, intake_ref=DROP))
    create("missing all fields: {}", {})
    create("missing fields echo extra keys in input", {"note": "hi", "request_type": "access"})
    create("missing fields input drops keys starting with _sa (jsonable_encoder)",
           {"_sa_instance_state": 1, "_safe": True, "sa_ok": 2, "request_type": "access"})

    # ---- every field wrong at once, keys in reverse order (errors follow declaration order)
    create("every field invalid, keys reversed", dict(reversed(list({
        "request_type": "erase", "scope": ["user", "bogus"], "subject_id": "",
        "subject_provider": 7, "workspace_id": None, "client_request_id": "short",
        "intake_ref": ["x"]}.items()))))

    # ---- non-object bodies
    for label, raw in [("[]", "[]"), ('"x"', '"x"'), ("5", "5"), ("null", "null"), ("true", "true"),
                       ("array holding a valid object", dumps([VALID_CREATE])), ("5.5", "5.5")]:
        create(f"non-object body {label}", None, raw=raw)

    # ---- malformed JSON (short-circuits every other error)
    for label, raw in [
        ("{", "{"),
        ("trailing comma", '{"request_type": "access",}'),
        ("trailing garbage", dumps(VALID_CREATE) + " x"),
        ("two objects", "{}{}"),
        ("single quotes", "{'request_type': 'access'}"),
        ("unquoted value", '{"request_type": access}'),
        ("missing colon", '{"request_type" "access"}'),
        ("missing comma", '{"request_type": "access" "scope": []}'),
        ("unterminated string", '{"request_type": "acc'),
        ("raw newline inside string", '{"intake_ref": "line1\nline2"}'),
        ("invalid escape", '{"intake_ref": "C:\\Users"}'),
        ("whitespace only", "  \n"),
        ("unclosed array", '{"scope": ["user"'),
        ("position counts code points: CJK before error", '{"subject_id": "日本語", oops}'),
        ("position counts code points: emoji before error", '{"subject_id": "😀😀😀",}'),
        ("leading zero number", '{"subject_id": 0583231}'),
    ]:
        create(f"malformed JSON {label}", None, raw=raw)
    create("malformed JSON with missing idempotency-key (only json_invalid)", None, raw="{",
           idem=None)

    # ---- empty / absent body
    create("empty body with json content-type", None, raw="")
    add("create: no body, no content-type", "create", headers={"idempotency-key": IDEM}, body=None)

    # ---- non-JSON content types: raw bytes reach the model
    create("text/plain body is not parsed", VALID_CREATE,
           headers={"content-type": "text/plain", "idempotency-key": IDEM})
    create("form-urlencoded (curl -d default) is not parsed", None, raw="request_type=access",
           headers={"content-type": "application/x-www-form-urlencoded", "idempotency-key": IDEM})

    # ---- idempotency-key header bounds, combined with body errors
    create("idempotency-key exactly 8", VALID_CREATE, idem="abcd1234")
    create("idempotency-key 7", VALID_CREATE, idem="abcd123")
    create("idempotency-key 201", VALID_CREATE, idem=pad("idem-", 201))
    create("idempotency-key empty value", VALID_CREATE, idem="")
    create("idempotency-key missing", VALID_CREATE, idem=None)
    create("idempotency-key missing plus body errors (header error first)",
           c(request_type="nope", client_request_id="abc"), idem=None)
    create("idempotency-key too short plus missing body fields", {"workspace_id": "acme"}, idem="short")
    create("idempotency-key too long plus non-object body", None, raw="[]", idem=pad("k", 201))
    add("create: idempotency-key missing and no body", "create", headers={}, body=None)


def build_list_cases() -> None:
    def lst(name: str, query: dict) -> None:
        add("list: " + name, "list", query=query)

    lst("valid workspace only", {"workspace_id": "acme"})
    lst("valid every filter", {"workspace_id": "acme", "status": "action_required",
                               "request_type": "deletion", "overdue": "true",
                               "cursor": "eyJpZCI6IjEyMyJ9", "limit": "25"})
    lst("valid limit 1", {"workspace_id": "acme", "limit": "1"})
    lst("valid limit 100", {"workspace_id": "acme", "limit": "100"})
    lst("valid workspace_id 200 chars, cursor 500 chars",
        {"workspace_id": pad("acme-", 200), "cursor": pad("c", 500)})
    lst("valid workspace_id 1 char, empty cursor", {"workspace_id": "a", "cursor": ""})
    lst("valid workspace_id 200 emoji", {"workspace_id": EMOJI * 200})
    lst("valid unknown query params ignored", {"workspace_id": "acme", "order": "desc", "page": "x"})
    lst("valid no workspace_id (every readable workspace)", {})
    lst("valid repeated workspace_id", {"workspace_id": ["acme", "beta"]})
    lst("valid 50 workspace_ids", {"workspace_id": [f"w{i}" for i in range(50)]})
    lst("valid queue filters", {"workspace_id": "acme", "subject_id": "583231", "subject_provider": "github",
                                "due_before": "2026-12-01T00:00:00Z", "sort": "due_at"})
    for v in ["2026-12-01T00:00:00Z", "2026-12-01T00:00:00.123456789+05:30", "2026-02-28T23:59:59-00:00"]:
        lst(f"valid due_before {v!r}", {"due_before": v})
    lst("valid sort created_at", {"sort": "created_at"})
    for v in ["0", "7", "3650"]:
        lst(f"valid due_within_days {v!r}", {"status": "open", "due_within_days": v})
    for v in ["-1", "3651", "seven", "", "1.5"]:
        lst(f"due_within_days {v!r}", {"status": "open", "due_within_days": v})
    lst("valid agent_id", {"agent_id": "test-agent_01"})
    for v in ["", "a b", "x" * 101, "agent/1"]:
        lst(f"agent_id {v[:20]!r}", {"agent_id": v})
    for v in ["yes", "0", "TRUE", "off", "t", "N"]:
        lst(f"valid overdue {v!r}", {"workspace_id": "acme", "overdue": v})
    for v in [" 5", "5 ", "5.0", "100.000", "+5", "05", "1_0", "1_0.0"]:
        lst(f"valid limit {v!r}", {"workspace_id": "acme", "limit": v})
    lst("valid repeated limit, last wins", {"workspace_id": "acme", "limit": ["abc", "5"]})
    lst("repeated workspace_id, each checked", {"workspace_id": ["", "acme", pad("w", 201)]})
    lst("51 workspace_ids", {"workspace_id": [f"w{i}" for i in range(51)]})
    lst("workspace_id empty", {"workspace_id": ""})
    lst("workspace_id 201", {"workspace_id": pad("acme-", 201)})
    lst("workspace_id 201 emoji", {"workspace_id": EMOJI * 201})
    lst("repeated workspace_id, the last empty", {"workspace_id": ["acme", ""]})
    for v in ["2026-12-01", "2026-12-01T00:00:00", "2026-13-01T00:00:00Z", "2026-12-01 00:00:00Z",
              "2026-12-01T24:00:00Z", "2026-12-01T00:00:00.Z", "2026-12-01t00:00:00z", "\u0661" * 4, ""]:
        lst(f"due_before {v!r}", {"due_before": v})
    for v in ["due", "", "DUE_AT", "created_at "]:
        lst(f"sort {v!r}", {"sort": v})
    lst("subject_id empty, subject_provider 101", {"subject_id": "", "subject_provider": pad("p", 101)})
    lst("subject_id 301", {"subject_id": pad("s", 301)})
    for v in ["archived", "", "Queued", "queued "]:
        lst(f"status {v!r}", {"workspace_id": "acme", "status": v})
    lst("request_type unknown", {"workspace_id": "acme", "request_type": "erasure"})
    for v in ["maybe", "", " true", "2", "1.0", "truee"]:
        lst(f"overdue {v!r}", {"workspace_id": "acme", "overdue": v})
    lst("cursor 501", {"workspace_id": "acme", "cursor": pad("c", 501)})
    for v in ["abc", "0", "101", "-1", "1.5", "", "1e1", "0x10", "5.", "99999999999999999999",
              "0.0", "1__0"]:
        lst(f"limit {v!r}", {"workspace_id": "acme", "limit": v})
    lst("repeated limit, last (invalid) wins", {"workspace_id": "acme", "limit": ["5", "abc"]})
    lst("every param invalid (declaration order)", {
        "limit": "0", "cursor": pad("c", 501), "overdue": "maybe", "request_type": "purge",
        "status": "done", "workspace_id": ""})
    lst("no workspace_id and limit invalid", {"limit": "abc"})
    lst("workspace_id with a NUL", {"workspace_id": "ac\u0000me"})
    lst("cursor with a NUL", {"workspace_id": "acme", "cursor": "\u0000"})
    lst("NUL in every param", {"workspace_id": "\u0000", "status": "queued\u0000",
                               "request_type": "\u0000", "overdue": "true\u0000",
                               "cursor": "c\u0000", "limit": "5\u0000"})
    lst("NUL in an unknown param is ignored", {"workspace_id": "acme", "x": "\u0000"})


def build_audit_list_cases() -> None:
    def aud(name: str, query: dict) -> None:
        add("audit list: " + name, "audit_list", query=query)

    aud("valid no filters", {})
    aud("valid every filter", {"workspace_id": "acme", "target_type": "privacy_request",
                               "target_id": "pr_01JD0000000000000000000000", "action": "privacy_request.created",
                               "limit": "100"})
    aud("workspace_id empty", {"workspace_id": ""})
    for v in ["Privacy_Request", "privacy-request", "", "_x", pad("t", 51)]:
        aud(f"target_type {v[:12]!r}", {"target_type": v})
    aud("target_id 801", {"target_id": pad("pr_", 801)})
    for v in ["privacy_request.created!", "", "Privacy.created"]:
        aud(f"action {v!r}", {"action": v})
    aud("cursor 501 and limit 0", {"cursor": pad("c", 501), "limit": "0"})
    aud("every param invalid (declaration order)", {"limit": "x", "cursor": pad("c", 501), "action": "A",
                                                     "target_id": "", "target_type": "9", "workspace_id": ""})


def build_effective_cases() -> None:
    def eff(name: str, query: dict) -> None:
        add("effective: " + name, "effective", query=query)

    eff("valid", {"workspace_id": "acme", "repository": "acme/payments-api"})
    eff("valid bounds 1 and 1", {"workspace_id": "a", "repository": "r"})
    eff("valid bounds 200 and 500", {"workspace_id": pad("acme-", 200),
                                     "repository": pad("github.com/acme/", 500)})
    eff("valid repository 500 emoji", {"workspace_id": "acme", "repository": EMOJI * 500})
    eff("missing both", {})
    eff("missing repository", {"workspace_id": "acme"})
    eff("missing workspace_id", {"repository": "acme/payments-api"})
    eff("both empty", {"workspace_id": "", "repository": ""})
    eff("workspace_id 201", {"workspace_id": pad("acme-", 201), "repository": "acme/api"})
    eff("repository 501", {"workspace_id": "acme", "repository": pad("github.com/acme/", 501)})
    eff("repository 501 emoji, workspace_id missing", {"repository": EMOJI * 501})
    eff("repeated repository, last wins", {"workspace_id": "acme", "repository": ["acme/api", ""]})
    eff("repository with a NUL", {"workspace_id": "acme", "repository": "acme/\u0000api"})
    eff("workspace_id with a NUL, repository too long with a NUL",
        {"workspace_id": "\u0000", "repository": "\u0000" * 501})


def build_policy_cases() -> None:
    def put(name: str, body: Any, *, raw: Optional[str] = None,
            headers: Optional[dict] = None) -> None:
        add("policy_put: " + name, "policy_put", headers=JSON_CT if headers is None else headers,
            body=raw if raw is not None else dumps(body))

    full = {"processing_allowed": True, "retention_days": 365, "author_identity": "pseudonymous",
            "excluded_paths": ["vendor/", "docs/**/*.md"], "regulations": ["gdpr", "ccpa"],
            "require_approval": True, "auto_erase_on_deprovision": False}
    put("valid empty object inherits everything", {})
    put("valid every field", full)
    put("valid confirm_no_data false", {"confirm_no_data": False})
    put("confirm_no_data not a boolean", {"confirm_no_data": "no"})
    put("valid holidays", {"holidays": ["2026-12-25", "2027-01-01", "2028-02-29", "0050-01-01"]})
    put("valid holidays empty", {"holidays": []})
    put("holidays not real days, and one not a date",
        {"holidays": ["2026-02-30", "2026-13-01", "0000-01-01", "25/12/2026", "2026-12-25T00:00:00Z"]})
    put("holidays duplicated", {"holidays": ["2026-12-25", "2026-12-25"]})
    put("holidays 201 items (only too_long)", {"holidays": ["2026-12-25"] * 201})
    put("holidays not a list, items not strings", {"holidays": "2026-12-25"})
    put("holidays item a number", {"holidays": [20261225, None]})
    put("valid repeat_window_days bounds 0", {"repeat_window_days": 0})
    put("valid repeat_window_days bounds 365", {"repeat_window_days": 365})
    put("repeat_window_days 366", {"repeat_window_days": 366})
    put("repeat_window_days negative", {"repeat_window_days": -1})
    put("repeat_window_days a float", {"repeat_window_days": 30.5})
    put("repeat_window_days a numeric string", {"repeat_window_days": "30"})
    put("repeat_window_days null", {"repeat_window_days": None})
    put("valid review_packages true", {"review_packages": True})
    put("review_packages a string", {"review_packages": "yes"})
    put("review_packages null", {"review_packages": None})
    put("valid bounds: retention 1, empty excluded_paths, one regulation",
        {"processing_allowed": False, "retention_days": 1, "author_identity": "none",
         "excluded_paths": [], "regulations": ["ccpa"]})
    put("valid bounds: retention 3650, 100 paths of 500 chars, 2 regulations",
        {"retention_days": 3650, "excluded_paths": [pad(f"src/{i}/", 500) for i in range(100)],
         "regulations": ["ccpa", "gdpr"]})
    put("valid excluded path 1 char and 500 emoji", {"excluded_paths": ["a", EMOJI * 500]})
    put("valid paths differing only in case are distinct", {"excluded_paths": ["Vendor/", "vendor/"]})

    # ---- sets: regulations at least one, no duplicates; excluded_paths no duplicates
    put("regulations empty", {"regulations": []})
    put("regulations duplicated", {"regulations": ["ccpa", "ccpa"]})
    put("regulations duplicated gdpr, other fields valid",
        {"retention_days": 30, "regulations": ["gdpr", "gdpr"], "require_approval": True})
    put("regulations 3 items with duplicates (only too_long)", {"regulations": ["ccpa", "ccpa", "ccpa"]})
    put("regulations duplicated unknown key (only literal_error)", {"regulations": ["hipaa", "hipaa"]})
    put("excluded_paths duplicated", {"excluded_paths": ["vendor/", "docs/", "vendor/"]})
    put("excluded_paths duplicated and an invalid item (only the item error)",
        {"excluded_paths": ["vendor/", "vendor/", ""]})
    put("excluded_paths 101 duplicates (only too_long)", {"excluded_paths": ["vendor/"] * 101})
    put("regulations empty and excluded_paths duplicated",
        {"excluded_paths": ["a", "a"], "regulations": []})

    # ---- unknown fields: extra="forbid" (a typo must not wipe a setting)
    put("unknown field: typo retension_days", {"retension_days": 7})
    put("unknown fields after field errors, in input order",
        {"zeta": None, "retention_days": 0, "alpha": [1], "regulations": []})
    put("unknown fields next to valid ones", {"retention_days": 30, "inherit": True, "version": 3})
    put("unknown field with an object value (input echoed, _sa keys dropped)",
        {"settings": {"retention_days": 7, "_sa_state": 1}})
    put("unknown field __proto__", None, raw='{"__proto__": {"retention_days": 7}}')

    # ---- NUL
    put("excluded_paths item with a NUL", {"excluded_paths": ["src/", "vendor/\u0000"]})
    put("excluded_paths item 501 NULs (only too_long)", {"excluded_paths": ["\u0000" * 501]})
    put("regulations item with a NUL (literal_error)", {"regulations": ["gdpr\u0000"]})
    put("empty body", None, raw="")
    add("policy_put: no body, no content-type", "policy_put", headers={}, body=None)
    put("JSON null body", None, raw="null")
    put("array body", None, raw="[]")
    put("string body", None, raw='"gdpr"')
    put("malformed JSON", None, raw='{"retention_days": 30,}')
    put("malformed JSON single quotes", None, raw="{'retention_days': 30}")

    for label, v in [("string 'true'", "true"), ("number 1", 1), ("number 0", 0), ("null", None),
                     ("array", [True])]:
        put(f"processing_allowed {label}", {"processing_allowed": v})
    for label, v in [("0", 0), ("3651", 3651), ("-1", -1), ("string '30'", "30"), ("null", None),
                     ("boolean true", True), ("10.5", 10.5), ("huge", 99999999999999999999)]:
        put(f"retention_days {label}", {"retention_days": v})
    put("retention_days float 5.0 (JSON float is not an int in strict mode)", None,
        raw='{"retention_days": 5.0}')
    put("retention_days exponent 1e2", None, raw='{"retention_days": 1e2}')
    put("retention_days -0 is the int 0", None, raw='{"retention_days": -0}')
    for label, v in [("'Full'", "Full"), ("empty", ""), ("null", None), ("number", 1),
                     ("array", ["full"])]:
        put(f"author_identity {label}", {"author_identity": v})
    put("excluded_paths 101 items", {"excluded_paths": [f"p{i}/" for i in range(101)]})
    put("excluded_paths 101 items with invalid ones (only too_long)",
        {"excluded_paths": ["", 5, *[f"p{i}/" for i in range(98)], "x" * 501]})
    put("excluded_paths item empty", {"excluded_paths": [""]})
    put("excluded_paths item 501 chars", {"excluded_paths": ["src/", "x" * 501]})
    put("excluded_paths item 501 emoji", {"excluded_paths": [EMOJI * 501]})
    put("excluded_paths items invalid at several indexes",
        {"excluded_paths": ["ok/", "", 5, None, "x" * 501, ["nested"]]})
    put("excluded_paths string", {"excluded_paths": "vendor/"})
    put("excluded_paths null", {"excluded_paths": None})
    put("excluded_paths object", {"excluded_paths": {"0": "vendor/"}})
    put("regulations 3 items", {"regulations": ["gdpr", "ccpa", "gdpr"]})
    put("regulations 3 items with an unknown one (only too_long)", {"regulations": ["hipaa", "gdpr", "x"]})
    put("regulations unknown", {"regulations": ["gdpr", "hipaa"]})
    put("regulations uppercase", {"regulations": ["GDPR"]})
    put("regulations null", {"regulations": None})
    put("regulations string", {"regulations": "gdpr"})
    put("every field explicit null", dict.fromkeys(full))
    put("every field invalid, keys reversed",
        {"regulations": ["pipeda"], "excluded_paths": [""], "author_identity": "anon",
         "retention_days": 0, "processing_allowed": "yes"})
    put("duplicate key, last (invalid) wins", None, raw='{"retention_days": 30, "retention_days": 0}')
    put("duplicate key, last (valid) wins", None, raw='{"retention_days": 0, "retention_days": 30}')
    put("text/plain body is not parsed", full,
        headers={"content-type": "text/plain; charset=utf-8"})

    def put_repo(name: str, workspace_id: str, repository: str, body: Any) -> None:
        add("policy_put_repository: " + name, "policy_put_repository", headers=JSON_CT,
            path={"workspace_id": workspace_id, "repository": repository}, body=dumps(body))

    put_repo("valid", "acme", "payments-api", {"regulations": ["ccpa"]})
    put_repo("workspace_id with a NUL", "ac\u0000me", "payments-api", {})
    put_repo("repository with a NUL, body errors after path errors", "acme", "pay\u0000ments",
             {"regulations": [], "retension_days": 7})
    put_repo("both path params only a NUL", "\u0000", "\u0000", {})


def build_review_cases() -> None:
    rid = "pr_01J0000000000000000000000"

    def ident(name: str, body: Any, *, raw: Optional[str] = None) -> None:
        add("request_identity: " + name, "request_identity", headers=JSON_CT, path={"id": rid},
            body=raw if raw is not None else dumps(body))

    def confirm(name: str, body: Any, *, raw: Optional[str] = None) -> None:
        add("request_confirm_no_data: " + name, "request_confirm_no_data", headers=JSON_CT, path={"id": rid},
            body=raw if raw is not None else dumps(body))

    ident("valid", {"subject_provider": "email", "subject_id": "ada@example.com", "reason": "typo at intake"})
    ident("empty object", {})
    ident("reason empty, subject_id too long", {"subject_provider": "github", "subject_id": "9" * 301, "reason": ""})
    ident("subject_provider not a string", {"subject_provider": 5, "subject_id": "1", "reason": "r"})
    ident("array body", None, raw="[]")
    ident("valid phone with punctuation", {"subject_provider": "phone", "subject_id": " +49 (30) 1234-5678 ",
                                           "reason": "the person gave a phone number"})
    ident("phone not E.164 (no +)", {"subject_provider": "phone", "subject_id": "030 1234567", "reason": "r"})
    ident("phone not checked while reason fails", {"subject_provider": "phone", "subject_id": "x", "reason": ""})
    confirm("valid", {"reason": "searched every system by hand"})
    confirm("reason missing", {})
    confirm("reason too long", {"reason": "r" * 1001})
    confirm("malformed JSON", None, raw='{"reason": "x",}')


def build_repeat_cases() -> None:
    rid = "pr_01J0000000000000000000000"

    def proceed(name: str, body: Any, *, raw: Optional[str] = None) -> None:
        add("request_proceed: " + name, "request_proceed", headers=JSON_CT, path={"id": rid},
            body=raw if raw is not None else dumps(body))

    proceed("valid", {"reason": "the earlier request was about another account"})
    proceed("valid reason 1000 chars", {"reason": "r" * 1000})
    proceed("reason missing", {})
    proceed("reason empty", {"reason": ""})
    proceed("reason too long", {"reason": "r" * 1001})
    proceed("reason not a string", {"reason": 5})
    proceed("array body", None, raw="[]")
    proceed("malformed JSON", None, raw='{"reason": "x",}')


def build_package_review_cases() -> None:
    rid = "pr_01J0000000000000000000000"

    def redact(name: str, body: Any, *, raw: Optional[str] = None) -> None:
        add("request_redaction: " + name, "request_redaction", headers=JSON_CT, path={"id": rid},
            body=raw if raw is not None else dumps(body))

    def release(name: str, body: Any, *, raw: Optional[str] = None) -> None:
        add("request_release: " + name, "request_release", headers=JSON_CT, path={"id": rid},
            body=raw if raw is not None else (None if body is None else dumps(body)))

    redact("valid", {"path": "/systems/shop/orders/0/notes", "reason": "names another customer"})
    redact("valid bounds", {"path": "/" + "p" * 1999, "reason": "r" * 500})
    redact("path missing", {"reason": "x"})
    redact("reason missing, path empty", {"path": ""})
    redact("path too long, reason too long", {"path": "/" + "p" * 2000, "reason": "r" * 501})
    redact("path not a string", {"path": ["systems"], "reason": "x"})
    redact("unknown field", {"path": "/a", "reason": "x", "value": "secret"})
    redact("no body", None, raw="")
    redact("array body", None, raw="[]")
    release("valid with reason", {"reason": "checked by the second operator"})
    release("valid empty object", {})
    release("valid without a body", None)
    release("valid null body", None, raw="null")
    release("reason empty", {"reason": ""})
    release("reason not a string", {"reason": 7})
    release("unknown field", {"why": "x"})
    release("array body", None, raw="[]")


def build_opt_out_cases() -> None:
    valid = {"workspace_id": "acme", "subject_provider": "email", "subject_id": "zq@example.test",
             "kind": "sale_sharing", "choice": "opt_out", "source": "form",
             "client_request_id": "crm-oo-0001"}

    def oo(name: str, body: Any, *, raw: Optional[str] = None, idem: Optional[str] = IDEM) -> None:
        headers = dict(JSON_CT)
        if idem is not None:
            headers["idempotency-key"] = idem
        add("opt_out_create: " + name, "opt_out_create", headers=headers,
            body=raw if raw is not None else dumps(body))

    def v(**changes: Any) -> dict:
        out = dict(valid)
        for k, value in changes.items():
            if value is DROP:
                out.pop(k, None)
            else:
                out[k] = value
        return out

    oo("valid opt_out from the form", valid)
    oo("valid opt_in from api", v(choice="opt_in", source="api", client_request_id="crm-oo-0002"))
    for kind in ("sensitive_use", "direct_marketing"):
        oo(f"valid {kind} by gpc", v(kind=kind, source="gpc", client_request_id=f"crm-oo-{kind}"))
    oo("unknown kind", v(kind="sale"))
    oo("unknown choice", v(choice="maybe"))
    oo("unknown source", v(source="email"))
    oo("kind, choice and source unknown at once", v(kind="SALE_SHARING", choice=None, source=5))
    for source in ("form", "gpc", "agent"):
        oo(f"opt_in from {source}", v(choice="opt_in", source=source))
    oo("opt_in from an unknown source (only literal_error)", v(choice="opt_in", source="center"))
    oo("opt_in from form with a bad phone (identity first)",
       v(choice="opt_in", subject_provider="phone", subject_id="12"))
    oo("every field missing", {})
    oo("missing idempotency key", valid, idem=None)
    oo("client_request_id too short, workspace_id empty", v(client_request_id="short", workspace_id=""))
    oo("received_at not RFC 3339", v(received_at="2026-12-04"))
    oo("array body", None, raw="[]")
    oo("malformed JSON", None, raw='{"kind": "sale_sharing",}')


def build_request_get_cases() -> None:
    def get(name: str, request_id: str) -> None:
        add("request_get: " + name, "request_get", path={"id": request_id})

    get("valid unknown id", "pr_01J0000000000000000000000")
    get("id with a NUL", "pr_\u0000")
    get("id only a NUL", "\u0000")
    get("id 41 chars (too_long before the NUL check)", "\u0000" * 41)


def build_officer_cases() -> None:
    """PRODUCT §2.16: the queue's new filters, counts, assignment, notes, bulk actions, the report."""
    lst = lambda name, query: add("list: " + name, "list", query=query)  # noqa: E731
    lst("valid status open and repeated", {"status": ["open", "completed"]})
    lst("valid assignee me", {"assignee": "me"})
    lst("valid assignee none, format csv", {"assignee": "none", "format": "csv"})
    lst("assignee empty", {"assignee": ""})
    lst("assignee 301", {"assignee": pad("a", 301)})
    lst("status repeated, one unknown", {"status": ["open", "archived", "queued"]})
    lst("format unknown", {"format": "xlsx"})
    add("stats: valid", "stats", query={"workspace_id": "acme"})
    add("stats: valid no workspace", "stats")
    add("stats: workspace_id empty", "stats", query={"workspace_id": ""})
    rep = lambda name, query: add("report: " + name, "report", query=query)  # noqa: E731
    rep("valid days", {"from": "2026-01-01", "to": "2026-12-31"})
    rep("valid times, csv", {"from": "2026-01-01T00:00:00Z", "to": "2026-06-30T12:00:00+02:00", "format": "csv"})
    rep("valid nothing", {})
    for v in ["2026-1-01", "2026-02-30T", "yesterday", "2026-01-01T00:00:00", ""]:
        rep(f"from {v!r}", {"from": v})
    rep("format unknown", {"format": "pdf"})
    rid = "pr_01J0000000000000000000000"

    def assign(name: str, body: Any, *, raw: Optional[str] = None) -> None:
        add("assign: " + name, "assign", headers=JSON_CT, path={"id": rid},
            body=raw if raw is not None else dumps(body))

    assign("valid name", {"assignee": "Dana Officer", "reason": "taking it"})
    assign("valid null", {"assignee": None})
    assign("assignee missing", {})
    assign("assignee empty, reason empty", {"assignee": "", "reason": ""})
    assign("assignee a number", {"assignee": 5})
    assign("assignee 301", {"assignee": pad("a", 301)})
    assign("assignee with a TAB", {"assignee": "Dana\tOfficer"})
    assign("assignee with a CR and an LF", {"assignee": "Dana\r\nOfficer"})
    assign("assignee with a C1 control", {"assignee": "Dana\u009bOfficer"})
    assign("valid assignee with markup-like text", {"assignee": "Dana <Officer>"})

    def note(name: str, body: Any, *, raw: Optional[str] = None) -> None:
        add("note: " + name, "note", headers=JSON_CT, path={"id": rid},
            body=raw if raw is not None else dumps(body))

    note("valid 4000", {"text": pad("n", 4000)})
    note("valid 4000 emoji", {"text": EMOJI * 4000})
    note("text 4001", {"text": pad("n", 4001)})
    note("text empty", {"text": ""})
    note("text missing", {})
    note("text null", {"text": None})
    note("text with a NUL", {"text": "a\u0000b"})
    note("malformed JSON", None, raw='{"text": ')

    def bulk(name: str, body: Any, *, raw: Optional[str] = None) -> None:
        add("bulk: " + name, "bulk", headers=JSON_CT, body=raw if raw is not None else dumps(body))

    bulk("valid approve", {"action": "approve", "ids": [rid]})
    bulk("valid cancel 100", {"action": "cancel", "ids": [rid] * 100, "reason": "duplicates"})
    bulk("valid assign null", {"action": "assign", "ids": [rid], "assignee": None})
    bulk("101 ids", {"action": "cancel", "ids": [rid] * 101, "reason": "x"})
    bulk("no ids", {"action": "approve", "ids": []})
    bulk("ids missing, action unknown", {"action": "delete"})
    bulk("an id empty and one too long", {"action": "approve", "ids": ["", pad("p", 41)]})
    bulk("reject without a reason", {"action": "reject", "ids": [rid]})
    bulk("extend with an empty reason", {"action": "extend", "ids": [rid], "reason": ""})
    bulk("assign without an assignee", {"action": "assign", "ids": [rid]})
    bulk("assign a name with a NUL", {"action": "assign", "ids": [rid], "assignee": "Dana\u0000"})
    bulk("array body", None, raw="[]")


def build_controller_cases() -> None:
    valid = {
        "name": "Acme GmbH",
        "contact_email": "privacy@acme.example",
        "dpo_contact": "Dr. Jane Doe, dpo@acme.example",
        "representative": "Acme EU Rep B.V., Amsterdam",
        "supervisory_authority": {"name": "Berlin Commissioner for Data Protection",
                                  "url": "https://www.datenschutz-berlin.de/"},
        "privacy_notice_url": "https://acme.example/privacy?lang=en#rights",
    }

    def put(name: str, body: Any, *, raw: Optional[str] = None, workspace_id: str = "acme") -> None:
        add("controller_put: " + name, "controller_put", headers=JSON_CT, path={"workspace_id": workspace_id},
            body=raw if raw is not None else dumps(body))

    def v(**changes: Any) -> dict:
        out = dict(valid)
        for k, value in changes.items():
            if value is DROP:
                out.pop(k, None)
            else:
                out[k] = value
        return out

    put("valid full profile", valid)
    put("valid minimal profile", {"name": "Acme", "contact_email": "a@b.co"})
    put("name with a TAB", v(name="Acme\tGmbH"))
    put("name with a DEL", v(name="Acme\u007fGmbH"))
    put("valid e-mail with plus, dots and subdomains", v(contact_email="first.last+dsr@mail.eu.acme.example"))
    put("valid http URL with port", v(privacy_notice_url="http://localhost.example:8080/privacy"))
    put("valid URL with only a host", v(privacy_notice_url="https://acme.example"))
    put("missing name", v(name=DROP))
    put("missing name and contact_email", {"dpo_contact": "x"})
    put("empty name", v(name=""))
    put("name 201 chars", v(name="x" * 201))
    put("name a number", v(name=5))
    put("name null", v(name=None))
    for label, email in [("no @", "privacy.acme.example"), ("no dot in domain", "privacy@localhost"),
                         ("two @", "a@b@acme.example"), ("space", "pri vacy@acme.example"),
                         ("display name form", "Acme <privacy@acme.example>"),
                         ("trailing newline", "privacy@acme.example\n"), ("empty", ""),
                         ("markup", "<script>@x.example"), ("unicode domain", "a@b\u00fccher.example"),
                         ("domain ends with a dot", "a@acme.example."), ("NUL", "a\u0000@acme.example")]:
        put(f"contact_email {label}", v(contact_email=email))
    put("contact_email 255 chars", v(contact_email="a" * 60 + "@" + "b" * 60 + "." + "c" * 60 + "." + "d" * 73))
    put("contact_email a list", v(contact_email=["privacy@acme.example"]))
    for label, url in [("ftp scheme", "ftp://acme.example/privacy"), ("javascript scheme", "javascript:alert(1)"),
                       ("relative", "/privacy"), ("no host", "https:///privacy"),
                       ("user info", "https://user:pw@acme.example/"), ("space", "https://acme.example/pri vacy"),
                       ("quote", 'https://acme.example/"onmouseover="x'), ("uppercase scheme", "HTTPS://acme.example/"),
                       ("empty", "")]:
        put(f"privacy_notice_url {label}", v(privacy_notice_url=url))
    put("privacy_notice_url 2001 chars", v(privacy_notice_url=pad("https://acme.example/", 2001)))
    put("dpo_contact null", v(dpo_contact=None))
    put("representative empty", v(representative=""))
    put("supervisory_authority missing url", v(supervisory_authority={"name": "BfDI"}))
    put("supervisory_authority bad url and empty name",
        v(supervisory_authority={"name": "", "url": "data:text/html,hi"}))
    put("supervisory_authority a string", v(supervisory_authority="BfDI"))
    put("supervisory_authority null", v(supervisory_authority=None))
    put("supervisory_authority unknown key ignored", v(supervisory_authority={
        "name": "BfDI", "url": "https://www.bfdi.bund.de/", "phone": "+49"}))
    put("unknown field: typo dpo_contcat", v(dpo_contcat="dpo@acme.example"))
    put("every error at once, unknown field last",
        {"zzz": 1, "contact_email": "nope", "privacy_notice_url": "ftp://x", "supervisory_authority": {}})
    put("empty body", None, raw="")
    put("array body", None, raw="[]")
    put("malformed JSON", None, raw='{"name": "Acme",}')
    put("workspace_id with a NUL", valid, workspace_id="ac\u0000me")


def build_data_task_cases() -> None:
    valid = {"workspace_id": "acme", "key": "crm", "name": "CRM", "categories": ["user.contact"],
             "request_types": ["access", "deletion"]}

    def system(name: str, body: Any, *, raw: Optional[str] = None) -> None:
        add("system_create: " + name, "system_create", headers=JSON_CT,
            body=raw if raw is not None else dumps(body))

    def sc(**changes: Any) -> dict:
        out = dict(valid)
        for k, v in changes.items():
            if v is DROP:
                out.pop(k, None)
            else:
                out[k] = v
        return out

    system("valid", valid)
    # (an endpoint_id of no endpoint of the workspace is a 422 of the service, not of the schema)
    system("valid with due days", sc(key="crm-2", due_days=3650))
    system("empty object", {})
    system("key upper case and underscore",
           sc(key="Bad_Key"))
    system("key leading dash", sc(key="-crm"))
    system("key 64 chars", sc(key="a" * 64))
    system("key not a string", sc(key=7))
    system("unknown category and request type, non-strings",
           sc(categories=["user", "user.ssn", 5], request_types=["erase", None]))
    system("empty lists", sc(categories=[], request_types=[]))
    system("21 categories, 8 request types",
           sc(categories=["user"] * 21, request_types=["access"] * 8))
    system("valid with the opt-out kinds, a third party",
           sc(key="ad-network", request_types=["opt_out_sale_sharing", "limit_sensitive_use", "object_direct_marketing"],
              third_party=True))
    system("unknown opt-out kind, third_party a string",
           sc(request_types=["opt_out_marketing"], third_party="yes"))
    system("kind unknown", sc(kind="oracle"))
    system("kind not a string, categories empty", sc(kind=5, categories=[]))
    system("kind postgres with name too long", sc(kind="postgres", name="n" * 201))
    system("due_days 0", sc(due_days=0))
    system("due_days string", sc(due_days="30"))
    system("due_days null", sc(due_days=None))
    system("due_days 3651", sc(due_days=3651))
    system("endpoint_id empty", sc(endpoint_id=""))
    system("endpoint_id null", sc(endpoint_id=None))
    system("endpoint_id 41 chars", sc(endpoint_id="e" * 41))
    system("name missing, workspace_id too long", sc(name=DROP, workspace_id="w" * 201))
    system("dataset_key empty", sc(kind="postgres", dataset_key=""))
    system("dataset_key not a string", sc(kind="postgres", dataset_key=["mysql_example_test_dataset"]))
    system("dataset_key 201 chars", sc(kind="postgres", dataset_key="k" * 201))
    system("array body", None, raw="[]")
    system("valid with declared processing",
           sc(key="crm-3", purposes=["Delivering orders"], recipients=["The parcel service"],
              retention=["10 years after the order (tax law)"], source=["You, when you ordered"]))
    system("processing lists empty, not lists",
           sc(purposes=[], recipients="the parcel service", retention=None, source={}))
    system("processing statements blank, too long, not strings",
           sc(purposes=["   "], recipients=["r" * 501], retention=[7], source=[""]))
    system("processing list of 21", sc(purposes=["p"] * 21))
    system("processing statement with a NUL", sc(source=["you\u0000"]))

    def result(name: str, body: Any, *, task: str = "task_01J0000000000000000000000",
               raw: Optional[str] = None) -> None:
        add("task_result: " + name, "task_result", headers=JSON_CT, path={"id": task},
            body=raw if raw is not None else dumps(body))

    result("valid completed with everything",
           {"outcome": "completed", "records": {"user.name": 2}, "data": {"user.name": {"a": [1]}},
            "erased": {"user.name": 0}, "kept": [{"category": "user.name", "reason": "tax law"}],
            "note": "done"})
    result("valid not_applicable", {"outcome": "not_applicable"})
    result("outcome missing", {})
    result("outcome unknown", {"outcome": "done"})
    result("outcome not a string", {"outcome": 1})
    result("records negative, string and float counts",
           {"outcome": "completed", "records": {"a": -1, "b": "2", "c": 1.5}})
    result("records not an object", {"outcome": "completed", "records": [1]})
    result("data not an object", {"outcome": "completed", "data": "x"})
    result("erased null", {"outcome": "completed", "erased": None})
    result("kept items missing fields and too long",
           {"outcome": "completed", "kept": [{}, {"category": "", "reason": "r" * 501}, "x"]})
    result("kept 51 items", {"outcome": "failed", "kept": [{"category": "user", "reason": "r"}] * 51})
    result("note too long", {"outcome": "failed", "note": "n" * 2001})
    result("id with a NUL and a bad body", {"outcome": "x"}, task="task_\u0000")
    result("malformed JSON", None, raw='{"outcome": "completed",}')
    result("delivered_separately not a boolean", {"outcome": "completed", "delivered_separately": "yes"})
    result("delivered_separately null", {"outcome": "completed", "delivered_separately": None})
    result("valid delivered_separately", {"outcome": "completed", "delivered_separately": True})

    # PRODUCT §2.13: on an access/export task (the id is the test's own task, see PackageTaskResult).
    def answer(name: str, body: Any) -> None:
        add("task_result_package: " + name, "task_result_package", headers=JSON_CT,
            path={"id": "ACCESS_TASK"}, body=dumps(body))

    answer("completed with neither data nor records", {"outcome": "completed", "note": "3 tickets found"})
    answer("completed with delivered_separately false and kept",
           {"outcome": "completed", "delivered_separately": False,
            "kept": [{"category": "user", "reason": "tax law"}]})
    answer("completed with a field error: only the field's error", {"outcome": "completed", "note": 5})
    answer("completed with an unknown field: echoed in the input",
           {"outcome": "completed", "ticket_count": 3, "note": "3 tickets found"})
    answer("valid completed with zero counts", {"outcome": "completed", "records": {"user": 0}})
    answer("valid completed with data", {"outcome": "completed", "data": {"user.name": "Ada"}})
    answer("valid completed delivered separately", {"outcome": "completed", "delivered_separately": True})
    answer("valid not_applicable with nothing", {"outcome": "not_applicable"})
    answer("valid failed with nothing", {"outcome": "failed"})


def main() -> None:
    build_create_cases()
    build_list_cases()
    build_audit_list_cases()
    build_effective_cases()
    build_policy_cases()
    build_request_get_cases()
    build_opt_out_cases()
    build_review_cases()
    build_repeat_cases()
    build_package_review_cases()
    build_controller_cases()
    build_data_task_cases()
    build_officer_cases()
    names = [case["name"] for case in CASES]
    dupes = {n for n in names if names.count(n) > 1}
    assert not dupes, f"duplicate case names: {dupes}"
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(CASES, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    invalid = sum(1 for case in CASES if case["expected"]["status"] == 422)
    print(f"wrote {len(CASES)} cases ({invalid} x 422, {len(CASES) - invalid} valid) to "
          f"{OUT.relative_to(ROOT)} (pydantic {pydantic.VERSION}, "
          f"python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
