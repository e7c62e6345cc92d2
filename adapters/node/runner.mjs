// The JSON-lines half every Node.js producer runner of the kit shares.
//
// It speaks the protocol of the kit's Java producer runner
// (adapters/jvm/ProducerRunner.java) and of the Go runners
// (adapters/go/internal/runner/runner.go), so the Python harness drives a
// JavaScript client exactly as it drives Kafka's own KafkaProducer:
//
//   in  {"op":"open","props":{...}}      first line: build the producer
//       {"op":"send","id":"v0","topic":"t","partition":0,"value":"v0"}
//       {"op":"flush"}                    resolves when every send so far has completed
//       {"op":"txn","action":"init|begin|commit|abort"}  a transactional call (the commands after it wait)
//       {"op":"close","timeout_ms":1000}  close within the timeout, then exit
//   out {"event":"ready"} | {"event":"config-error",...} | {"event":"start-error",...}
//       {"event":"acked","id":..,"offset":n}
//       {"event":"error","id":..,"sync":b,"class":..,"message":..,"code":n,"cause":..}
//       {"event":"txn","action":..,"ok":true} | {"event":"txn","action":..,"ok":false,"class":..,"message":..,"code":n,"fatal":b}
//       {"event":"flushed"} | {"event":"closed"} | {"event":"bad-command",...}
//
// "props" holds the settings the Python adapter mapped from the trace's Java
// properties (adapters/node/producers.py). A closed stdin ends the program like
// a close command, so a harness that dies never leaves a runner behind. Nothing
// but protocol lines goes to stdout: a client's own logging goes to stderr.

import { createInterface } from 'node:readline'

export function emit (fields) {
  process.stdout.write(JSON.stringify(fields) + '\n')
}

// A setting the client refuses: becomes a config-error line.
export class ConfigError extends Error {}

const MAX_DEPTH = 8

// What an error wraps, the way each client wraps: KafkaJS keeps the last error of
// its retries in .cause; @platformatic/kafka's MultipleErrors holds one error per
// attempt (PLT_KFK_MULTIPLE: only the last attempt's counts) or, for a broker's
// answer (PLT_KFK_RESPONSE), one per failed partition (each counts).
function inner (error) {
  if (error == null || typeof error !== 'object') return []
  if (error.cause != null) return [error.cause]
  if (!Array.isArray(error.errors) || error.errors.length === 0) return []
  return error.code === 'PLT_KFK_RESPONSE' ? error.errors : [error.errors.at(-1)]
}

// The Kafka error code an error carries, following the wrappers to the last
// attempt: KafkaJS's protocol errors have a .type and a numeric .code (its
// connection errors put a socket code such as ECONNREFUSED in .code, never
// taken), @platformatic/kafka's ProtocolError an .apiCode. 0: no broker code.
export function kafkaCode (error, depth = 0) {
  if (error == null || typeof error !== 'object' || depth > MAX_DEPTH) return 0
  if (Number.isInteger(error.apiCode) && error.apiCode !== 0) return error.apiCode
  if (typeof error.type === 'string' && Number.isInteger(error.code) && error.code !== 0) return error.code
  for (const next of inner(error)) {
    const code = kafkaCode(next, depth + 1)
    if (code !== 0) return code
  }
  return 0
}

// What kind of error this is: KafkaJS names its classes (KafkaJSProtocolError,
// KafkaJSNumberOfRetriesExceeded ...); @platformatic/kafka keeps Error as the
// name and says the kind in a string code (PLT_KFK_NETWORK, PLT_KFK_PROTOCOL ...).
export function errorClass (error) {
  if (typeof error?.code === 'string' && error.code.startsWith('PLT_KFK_')) return error.code
  return error?.name ?? typeof error
}

// The chain of wrapped errors down to the last attempt's, outermost first.
function chain (error) {
  const out = []
  for (let current = error, depth = 0; current != null && depth < MAX_DEPTH; depth++) {
    out.push(current)
    current = inner(current)[0]
  }
  return out
}

// "Outer: message <- Inner: message ...", for a person.
export function describeChain (error) {
  return chain(error).map((e) => `${errorClass(e)}: ${e?.message ?? String(e)}`).join(' <- ')
}

// The innermost error's class: what finally went wrong.
export function rootName (error) {
  const all = chain(error)
  return all.length ? errorClass(all.at(-1)) : errorClass(error)
}

// The settings every runner needs, checked once: a list of brokers.
export function checkedSettings (settings) {
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) {
    throw new ConfigError(`open: "props" must be an object of settings, not ${JSON.stringify(settings)}`)
  }
  if (!Array.isArray(settings.bootstrap) || settings.bootstrap.length === 0) {
    throw new ConfigError('open: props.bootstrap must list at least one broker (host:port)')
  }
  return settings
}

// A client's constructor refusing its options is a refusal of the configuration.
export function refusal (error) {
  return Object.assign(new ConfigError(error?.message ?? String(error)), { name: error?.name ?? 'Error' })
}

// Kafka error codes after which a transactional producer cannot go on (fenced, not
// authorized): the others leave a transaction that can be aborted.
const FATAL_CODES = new Set([90, 53, 31])

// Run the protocol on stdin and stdout. `open(settings)` resolves to a
// producer with send(topic, partition, value) -> Promise<offset>, close(), and,
// for a transactional one, txn(action) -> Promise.
export async function main (open) {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })[Symbol.asyncIterator]()
  const first = await lines.next()
  if (first.done) process.exit(0)
  let command
  try {
    command = JSON.parse(first.value)
  } catch {
    command = null
  }
  if (command === null || typeof command !== 'object' || command.op !== 'open') {
    emit({ event: 'start-error', class: 'protocol', message: `the first line must be an open command: ${first.value}` })
    process.exit(0)
  }
  let producer
  try {
    producer = await open(checkedSettings(command.props))
  } catch (error) {
    const kind = error instanceof ConfigError ? 'config-error' : 'start-error'
    emit({ event: kind, class: errorClass(error), message: describeChain(error) })
    process.exit(0)
  }
  emit({ event: 'ready' })

  const pending = new Set()
  const send = (cmd) => {
    let completion
    try {
      completion = Promise.resolve(producer.send(cmd.topic, cmd.partition, cmd.value))
    } catch (error) {
      completion = Promise.reject(Object.assign(error ?? new Error('send threw'), { synchronous: true }))
    }
    const settled = completion.then(
      (offset) => emit({ event: 'acked', id: cmd.id, offset: Number(offset) }),
      (error) => emit({
        event: 'error',
        id: cmd.id,
        sync: error?.synchronous === true,
        class: errorClass(error),
        cause: rootName(error),
        message: describeChain(error),
        code: kafkaCode(error)
      })
    ).finally(() => pending.delete(settled))
    pending.add(settled)
  }

  let closeTimeout = 0
  let stop = null
  const stopped = new Promise((resolve) => { stop = resolve })
  process.on('SIGTERM', () => stop())
  process.on('SIGINT', () => stop())
  const reading = (async () => {
    for (;;) {
      const next = await lines.next()
      if (next.done) break
      let cmd
      try {
        cmd = JSON.parse(next.value)
      } catch (error) {
        emit({ event: 'bad-command', message: String(error?.message ?? error) })
        continue
      }
      if (cmd === null || typeof cmd !== 'object' || Array.isArray(cmd)) {
        emit({ event: 'bad-command', message: `a command is a JSON object, not ${next.value}` })
        continue
      }
      if (cmd.op === 'send') {
        send(cmd)
      } else if (cmd.op === 'txn') {
        if (typeof producer.txn !== 'function') {
          emit({ event: 'txn', action: cmd.action, ok: false, class: 'runner', message: 'this producer runs no transactions', code: 0, fatal: true })
          continue
        }
        try {
          await producer.txn(cmd.action)
          emit({ event: 'txn', action: cmd.action, ok: true })
        } catch (error) {
          const code = kafkaCode(error)
          emit({ event: 'txn', action: cmd.action, ok: false, class: errorClass(error), message: describeChain(error), code, fatal: FATAL_CODES.has(code) })
        }
      } else if (cmd.op === 'flush') {
        Promise.allSettled([...pending]).then(() => emit({ event: 'flushed' }))
      } else if (cmd.op === 'close') {
        closeTimeout = Number(cmd.timeout_ms) || 0
        break
      } else {
        emit({ event: 'bad-command', message: `unknown op ${cmd.op}` })
      }
    }
  })()
  await Promise.race([reading, stopped])
  const grace = new Promise((resolve) => setTimeout(resolve, closeTimeout + 5000))
  const closing = Promise.resolve().then(() => producer.close(closeTimeout)).catch((error) => {
    process.stderr.write(`closing the producer failed: ${describeChain(error)}\n`)
  })
  if (await Promise.race([closing.then(() => true), grace.then(() => false)]) === false) {
    process.stderr.write('the producer did not close in time; exiting\n')
  }
  emit({ event: 'closed' })
  process.exit(0)
}
