#!/usr/bin/env node
// An ACL authorizer with the semantics of Kafka 4.x's StandardAuthorizer (KIP-801),
// written in JavaScript with no dependencies, speaking the kafka-conformance
// subprocess protocol (docs/subprocess-protocol.md): one JSON request per stdin
// line, one JSON response per stdout line.
//
//   kafka-conformance check authorizer --target "cmd:node examples/node_authorizer/authorizer.js"
//
// It is written from Kafka's behaviour (see the protocol document and the kit's
// README), not translated from the kit's Python reference, so that the kit checks
// an independent implementation.  Logs go to stderr: stdout carries only responses.
'use strict';

const readline = require('node:readline');

const PROTOCOL = 1;
const WILDCARD = '*';
const WILDCARD_PRINCIPAL = 'User:*';
const PROBE_NAME = 'hardcode'; // the resource the interface-default authorizeByResourceType probes

const ENUMS = {
  resource_type: ['UNKNOWN', 'ANY', 'TOPIC', 'GROUP', 'CLUSTER', 'TRANSACTIONAL_ID', 'DELEGATION_TOKEN', 'USER'],
  pattern_type: ['UNKNOWN', 'ANY', 'MATCH', 'LITERAL', 'PREFIXED'],
  operation: ['UNKNOWN', 'ANY', 'ALL', 'READ', 'WRITE', 'CREATE', 'DELETE', 'ALTER', 'DESCRIBE', 'CLUSTER_ACTION',
    'DESCRIBE_CONFIGS', 'ALTER_CONFIGS', 'IDEMPOTENT_WRITE', 'CREATE_TOKENS', 'DESCRIBE_TOKENS'],
  permission: ['UNKNOWN', 'ANY', 'DENY', 'ALLOW'],
};

/** StandardAcl.compareTo within a resource type: names in reverse, then pattern type, operation, principal,
 *  host and permission (enum codes; strings compared by UTF-16 code units, as JavaScript and Java both do). */
function kafkaOrder(a, b) {
  const fields = [[b.name, a.name], [code('pattern_type', a), code('pattern_type', b)],
    [code('operation', a), code('operation', b)], [a.principal, b.principal], [a.host, b.host],
    [code('permission', a), code('permission', b)]];
  for (const [x, y] of fields) {
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}

function code(field, acl) {
  return ENUMS[field].indexOf(acl[field]);
}

// An ALLOW of any operation on the right also grants the operation on the left.  DENY never implies.
const IMPLIED_BY = {
  DESCRIBE: new Set(['READ', 'WRITE', 'DELETE', 'ALTER']),
  DESCRIBE_CONFIGS: new Set(['ALTER_CONFIGS']),
};

const JAVA = {
  'not-ready': 'org.apache.kafka.common.errors.AuthorizerNotReadyException',
  'invalid-argument': 'java.lang.IllegalArgumentException',
  'illegal-state': 'java.lang.IllegalStateException',
  'config-error': 'java.lang.IllegalArgumentException',
};

/** An exception Kafka itself would throw: reported as a Kafka-style error kind. */
class KafkaError extends Error {
  constructor(kind, message, extra = {}) {
    super(message);
    this.kind = kind;
    this.extra = extra;
  }
}

/** The request itself is wrong (a protocol error, not a Kafka behaviour). */
class BadRequest extends Error {}

// ---------------------------------------------------------------------------
// Kafka's small rules
// ---------------------------------------------------------------------------

/** SecurityUtils.parseKafkaPrincipal: split at the first colon; none, or empty text, is an error. */
function parsePrincipal(text) {
  if (typeof text !== 'string' || text === '') return null;
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  return { type: text.slice(0, colon), name: text.slice(colon + 1) };
}

function samePrincipal(a, b) {
  return a.type === b.type && a.name === b.name;
}

/** Java's String.trim(): strips every char <= U+0020 at both ends (not Unicode spaces). */
function javaTrim(text) {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start += 1;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end -= 1;
  return text.slice(start, end);
}

function aclKey(acl) {
  return JSON.stringify([acl.permission, acl.principal, acl.host, acl.operation, acl.resource_type, acl.name, acl.pattern_type]);
}

// ---------------------------------------------------------------------------
// The authorizer
// ---------------------------------------------------------------------------

class StandardAuthorizer {
  constructor() {
    this.superUsers = [];
    this.allowEveryone = false;
    this.loaded = false; // KIP-801: not ready until the initial load completes
    this.acls = new Map(); // id -> acl, in arrival order
    this.keys = new Map(); // content key -> id (AclCache refuses two ids with one ACL)
  }

  configure(props) {
    // super.users: ';'-separated, each entry trimmed, empty entries skipped, each must be Type:name.
    const supers = [];
    const raw = props['super.users'];
    if (raw !== undefined && raw !== null && javaTrim(raw) !== '') {
      raw.split(';').forEach((piece) => {
        const entry = javaTrim(piece);
        if (entry === '') return;
        const principal = parsePrincipal(entry);
        if (principal === null) {
          throw new KafkaError('config-error', `super.users entry '${entry}' is not in the form Type:name`, { key: 'super.users' });
        }
        supers.push(principal);
      });
    }
    // allow.everyone.if.no.acl.found: Boolean.parseBoolean of the trimmed value; never an error.
    const flag = props['allow.everyone.if.no.acl.found'];
    this.superUsers = supers;
    this.allowEveryone = typeof flag === 'string' && javaTrim(flag).toLowerCase() === 'true';
  }

  loadSnapshot(entries) {
    // All or nothing: a bad snapshot leaves the current ACLs in place.
    const acls = new Map();
    const keys = new Map();
    for (const { id, acl } of entries) add(acls, keys, id, acl);
    this.acls = acls;
    this.keys = keys;
  }

  apply(record) {
    if (record.type === 'add') {
      add(this.acls, this.keys, record.id, record.acl);
    } else {
      const acl = this.acls.get(record.id);
      if (acl === undefined) throw new KafkaError('illegal-state', `no ACL with id ${record.id} to remove`);
      this.acls.delete(record.id);
      this.keys.delete(aclKey(acl));
    }
  }

  isSuperUser(principal) {
    return this.superUsers.some((su) => samePrincipal(su, principal));
  }

  /** Kafka throws for the whole batch at the first action that throws. */
  authorize(context, actions) {
    return actions.map((action) => (this.authorizeOne(context, action) ? 'ALLOWED' : 'DENIED'));
  }

  authorizeOne(context, action) {
    if (action.pattern_type !== 'LITERAL') {
      throw new KafkaError('invalid-argument', `only LITERAL resources can be authorized, not ${action.pattern_type}`);
    }
    if (this.isSuperUser(context.principal)) return true;
    if (!this.loaded) throw new KafkaError('not-ready', 'the authorizer has not completed its initial ACL load');
    if (context.principal.type === 'User' && context.principal.name === WILDCARD) {
      // 4.x builds the principal set with Set.of(session, User:*), which rejects duplicates.
      throw new KafkaError('invalid-argument', 'duplicate element: the session principal is User:*');
    }
    // Kafka meets the ACLs on the resource in its own sorted order (StandardAcl.compareTo), parses each
    // stored principal as it meets it and stops at the first DENY that applies.
    const onIt = [...this.acls.values()].filter(
      (acl) => acl.resource_type === action.resource_type && coversName(acl, action.name));
    onIt.sort(kafkaOrder);
    const onResource = onIt.length > 0;
    let allowed = false;
    let denied = false;
    for (const acl of onIt) {
      // Non-ALLOW/DENY permissions count as DENY.  The stored principal is parsed before anything else.
      const isAllow = acl.permission === 'ALLOW';
      if (acl.principal !== WILDCARD_PRINCIPAL) {
        const owner = parsePrincipal(acl.principal);
        if (owner === null) throw new KafkaError('illegal-state', `stored ACL principal '${acl.principal}' is not Type:name`);
        if (!samePrincipal(owner, context.principal)) continue;
      }
      if (acl.host !== WILDCARD && acl.host !== context.host) continue;
      if (!grants(acl.operation, action.operation, isAllow)) continue;
      if (isAllow) allowed = true;
      else {
        denied = true;
        break;
      }
    }
    if (!onResource) return this.allowEveryone; // the only place allow.everyone.if.no.acl.found applies
    return allowed && !denied;
  }

  /** Authorizer.authorizeByResourceType's interface default (KIP-679), as StandardAuthorizer inherits it. */
  authorizeByResourceType(context, operation, resourceType) {
    if (resourceType === 'ANY' || resourceType === 'UNKNOWN') {
      throw new KafkaError('invalid-argument', `resource type ${resourceType} is not a concrete type`);
    }
    if (operation === 'ANY' || operation === 'UNKNOWN') {
      throw new KafkaError('invalid-argument', `operation ${operation} is not a concrete operation`);
    }
    const probe = { operation, resource_type: resourceType, name: PROBE_NAME, pattern_type: 'LITERAL' };
    if (this.authorizeOne(context, probe)) return 'ALLOWED';
    const applicable = [];
    for (const acl of this.acls.values()) {
      if (acl.resource_type !== resourceType) continue;
      if (acl.host !== context.host && acl.host !== WILDCARD) continue;
      if (acl.principal !== WILDCARD_PRINCIPAL) {
        const owner = parsePrincipal(acl.principal);
        if (owner === null) throw new KafkaError('invalid-argument', `stored ACL principal '${acl.principal}' is not Type:name`);
        if (!samePrincipal(owner, context.principal)) continue;
      }
      if (acl.operation !== operation && acl.operation !== 'ALL') continue; // no implication here
      applicable.push(acl);
    }
    const denyLiteral = new Set();
    const denyPrefix = [];
    const allowLiteral = [];
    const allowPrefix = [];
    let wildcardAllow = false;
    for (const acl of applicable) {
      const literal = acl.pattern_type === 'LITERAL';
      if (!literal && acl.pattern_type !== 'PREFIXED') continue;
      if (acl.permission === 'DENY') {
        if (literal && acl.name === WILDCARD) return 'DENIED';
        if (literal) denyLiteral.add(acl.name);
        else denyPrefix.push(acl.name);
      } else if (acl.permission === 'ALLOW') {
        if (literal && acl.name === WILDCARD) wildcardAllow = true;
        else if (literal) allowLiteral.push(acl.name);
        else allowPrefix.push(acl.name);
      }
    }
    if (wildcardAllow) return 'ALLOWED';
    const dominated = (name) => denyPrefix.some((p) => p !== '' && name.startsWith(p));
    if (allowPrefix.some((name) => !dominated(name))) return 'ALLOWED';
    if (allowLiteral.some((name) => !denyLiteral.has(name) && !dominated(name))) return 'ALLOWED';
    return 'DENIED';
  }

  list(filter) {
    return [...this.acls.values()].filter((acl) => filterMatches(filter, acl));
  }
}

function add(acls, keys, id, acl) {
  if (acls.has(id)) throw new KafkaError('illegal-state', `an ACL with id ${id} already exists`);
  const key = aclKey(acl);
  if (keys.has(key)) throw new KafkaError('illegal-state', `ACL ${id} duplicates the ACL with id ${keys.get(key)}`);
  acls.set(id, acl);
  keys.set(key, id);
}

/** Does a stored ACL's pattern cover the resource name?  (Any non-LITERAL pattern is a prefix.)
 *  Kafka's StandardAuthorizer never consults LITERAL '*' for a name that begins with '*'. */
function coversName(acl, name) {
  if (acl.pattern_type === 'LITERAL') return acl.name === name || (acl.name === WILDCARD && !name.startsWith(WILDCARD));
  return name.startsWith(acl.name); // PREFIXED "" covers every name
}

function grants(aclOperation, requested, isAllow) {
  if (aclOperation === 'ALL' || aclOperation === requested) return true;
  return isAllow && IMPLIED_BY[requested] !== undefined && IMPLIED_BY[requested].has(aclOperation);
}

/** AclBindingFilter.matches. */
function filterMatches(filter, acl) {
  const p = filter.pattern;
  const e = filter.entry;
  if (p.resource_type !== 'ANY' && p.resource_type !== acl.resource_type) return false;
  if (p.pattern_type === 'MATCH') {
    if (p.name !== null) {
      if (acl.pattern_type === 'LITERAL') {
        if (acl.name !== p.name && acl.name !== WILDCARD) return false;
      } else if (acl.pattern_type === 'PREFIXED') {
        if (!p.name.startsWith(acl.name)) return false;
      } else {
        return false;
      }
    }
  } else {
    if (p.pattern_type !== 'ANY' && p.pattern_type !== acl.pattern_type) return false;
    if (p.name !== null && p.name !== acl.name) return false;
  }
  if (e.principal !== null && e.principal !== acl.principal) return false;
  if (e.host !== null && e.host !== acl.host) return false;
  if (e.operation !== 'ANY' && e.operation !== acl.operation) return false;
  return e.permission === 'ANY' || e.permission === acl.permission;
}

// ---------------------------------------------------------------------------
// Checking requests (a malformed request is a protocol error, never a Kafka answer)
// ---------------------------------------------------------------------------

function need(obj, key, where) {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new BadRequest(`${where}: expected an object`);
  if (!(key in obj)) throw new BadRequest(`${where}: missing field '${key}'`);
  return obj[key];
}

function str(value, where, nullable = false) {
  if (nullable && value === null) return null;
  if (typeof value !== 'string') throw new BadRequest(`${where}: expected a string`);
  return value;
}

function enumName(kind, value, where) {
  if (!ENUMS[kind].includes(value)) throw new BadRequest(`${where}: expected one of ${ENUMS[kind].join(', ')}`);
  return value;
}

function list(value, where) {
  if (!Array.isArray(value)) throw new BadRequest(`${where}: expected an array`);
  return value;
}

function readAcl(obj, where) {
  const acl = {
    permission: enumName('permission', need(obj, 'permission', where), `${where}.permission`),
    principal: str(need(obj, 'principal', where), `${where}.principal`),
    host: str(need(obj, 'host', where), `${where}.host`),
    operation: enumName('operation', need(obj, 'operation', where), `${where}.operation`),
    resource_type: enumName('resource_type', need(obj, 'resource_type', where), `${where}.resource_type`),
    name: str(need(obj, 'name', where), `${where}.name`),
    pattern_type: enumName('pattern_type', need(obj, 'pattern_type', where), `${where}.pattern_type`),
  };
  if (['ANY', 'MATCH'].includes(acl.pattern_type) || acl.resource_type === 'ANY' || acl.operation === 'ANY' || acl.permission === 'ANY') {
    throw new BadRequest(`${where}: filter-only value (ANY/MATCH) in an ACL`);
  }
  return acl;
}

function readContext(obj, where) {
  const principal = need(obj, 'principal', where);
  return {
    principal: {
      type: str(need(principal, 'type', `${where}.principal`), `${where}.principal.type`),
      name: str(need(principal, 'name', `${where}.principal`), `${where}.principal.name`),
    },
    host: str(need(obj, 'host', where), `${where}.host`),
  };
}

function readAction(obj, where) {
  return {
    operation: enumName('operation', need(obj, 'operation', where), `${where}.operation`),
    resource_type: enumName('resource_type', need(obj, 'resource_type', where), `${where}.resource_type`),
    name: str(need(obj, 'name', where), `${where}.name`),
    pattern_type: enumName('pattern_type', need(obj, 'pattern_type', where), `${where}.pattern_type`),
  };
}

function readFilter(obj, where) {
  const p = need(obj, 'pattern', where);
  const e = need(obj, 'entry', where);
  return {
    pattern: {
      resource_type: enumName('resource_type', need(p, 'resource_type', `${where}.pattern`), `${where}.pattern.resource_type`),
      name: str(need(p, 'name', `${where}.pattern`), `${where}.pattern.name`, true),
      pattern_type: enumName('pattern_type', need(p, 'pattern_type', `${where}.pattern`), `${where}.pattern.pattern_type`),
    },
    entry: {
      principal: str(need(e, 'principal', `${where}.entry`), `${where}.entry.principal`, true),
      host: str(need(e, 'host', `${where}.entry`), `${where}.entry.host`, true),
      operation: enumName('operation', need(e, 'operation', `${where}.entry`), `${where}.entry.operation`),
      permission: enumName('permission', need(e, 'permission', `${where}.entry`), `${where}.entry.permission`),
    },
  };
}

/** Run one answer; a Kafka-style refusal becomes the error object the protocol defines. */
function guarded(fn) {
  try {
    return fn();
  } catch (err) {
    if (err instanceof KafkaError) return { error: errorObject(err) };
    throw err;
  }
}

function errorObject(err) {
  return { kind: err.kind, message: err.message, exception: JAVA[err.kind], ...err.extra };
}

// ---------------------------------------------------------------------------
// The protocol loop
// ---------------------------------------------------------------------------

let authorizer = new StandardAuthorizer();
let stopping = false; // a shutdown request was answered
let closed = false;

const HANDLERS = {
  hello: () => ({
    protocol: PROTOCOL,
    implementation: 'node-standard-authorizer (examples/node_authorizer/authorizer.js)',
    capabilities: {
      flavour: 'standard',
      kafka_version: '4.3.0',
      by_type_variant: 'default',
      prefixed: true,
      listing: true,
      acl_count: true,
      incremental: true,
      not_ready_state: true,
      error_comparison: 'kind',
    },
  }),
  reset: () => {
    authorizer = new StandardAuthorizer();
    return null;
  },
  configure: (req) => {
    const props = need(req, 'properties', 'request');
    if (props === null || typeof props !== 'object' || Array.isArray(props)) throw new BadRequest('properties: expected an object');
    for (const [key, value] of Object.entries(props)) str(value, `properties.${key}`);
    authorizer.configure(props);
    return null;
  },
  load_snapshot: (req) => {
    const entries = list(need(req, 'acls', 'request'), 'acls').map((entry, i) => ({
      id: str(need(entry, 'id', `acls[${i}]`), `acls[${i}].id`),
      acl: readAcl(need(entry, 'acl', `acls[${i}]`), `acls[${i}].acl`),
    }));
    authorizer.loadSnapshot(entries);
    return null;
  },
  apply: (req) => {
    const record = need(req, 'record', 'request');
    const type = need(record, 'type', 'record');
    const id = str(need(record, 'id', 'record'), 'record.id');
    if (type === 'add') authorizer.apply({ type, id, acl: readAcl(need(record, 'acl', 'record'), 'record.acl') });
    else if (type === 'remove') authorizer.apply({ type, id });
    else throw new BadRequest("record.type: expected 'add' or 'remove'");
    return null;
  },
  complete_initial_load: () => {
    authorizer.loaded = true;
    return null;
  },
  authorize: (req) => list(need(req, 'batches', 'request'), 'batches').map((batch, i) => {
    const context = readContext(need(batch, 'context', `batches[${i}]`), `batches[${i}].context`);
    const actions = list(need(batch, 'actions', `batches[${i}]`), `batches[${i}].actions`)
      .map((a, j) => readAction(a, `batches[${i}].actions[${j}]`));
    return guarded(() => authorizer.authorize(context, actions));
  }),
  authorize_by_resource_type: (req) => list(need(req, 'queries', 'request'), 'queries').map((q, i) => {
    const where = `queries[${i}]`;
    const context = readContext(need(q, 'context', where), `${where}.context`);
    const operation = enumName('operation', need(q, 'operation', where), `${where}.operation`);
    const resourceType = enumName('resource_type', need(q, 'resource_type', where), `${where}.resource_type`);
    return guarded(() => authorizer.authorizeByResourceType(context, operation, resourceType));
  }),
  acls: (req) => authorizer.list(readFilter(need(req, 'filter', 'request'), 'filter')),
  acl_count: () => authorizer.acls.size,
  shutdown: () => {
    stopping = true;
    return null;
  },
};

function handle(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (err) {
    return { id: null, error: { kind: 'bad-request', message: `not JSON: ${err.message}` } };
  }
  const id = request !== null && typeof request === 'object' && Number.isInteger(request.id) ? request.id : null;
  if (id === null) return { id: null, error: { kind: 'bad-request', message: "missing integer 'id'" } };
  const handler = Object.prototype.hasOwnProperty.call(HANDLERS, request.op) ? HANDLERS[request.op] : undefined;
  if (handler === undefined) return { id, error: { kind: 'unknown-op', message: `unknown op ${JSON.stringify(request.op)}` } };
  try {
    return { id, result: handler(request) };
  } catch (err) {
    if (err instanceof KafkaError) return { id, error: errorObject(err) };
    if (err instanceof BadRequest) return { id, error: { kind: 'bad-request', message: err.message } };
    process.stderr.write(`internal error in ${request.op}: ${err.stack}\n`);
    return { id, error: { kind: 'internal', message: String(err) } };
  }
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (line) => {
  if (line.trim() === '' || closed) return; // blank lines are allowed and ignored
  const response = handle(line);
  const text = `${JSON.stringify(response)}\n`;
  if (stopping) {
    closed = true;
    input.close();
    process.stdout.write(text, () => process.exit(0));
  } else {
    process.stdout.write(text);
  }
});
// EOF on stdin means the kit is done with us: exit once stdout is flushed.
input.on('close', () => {
  process.exitCode = 0;
});
