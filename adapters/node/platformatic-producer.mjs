// @platformatic/kafka's Producer (pinned in package.json) as a producer under test.
//
// Each record is its own producer.send() call, not awaited, as an application
// that hands records over without waiting does; completions are reported as
// they settle. The settings arrive mapped from Java names by
// adapters/node/producers.py. The acks go with each send: the Producer's own
// acks option is not read by send() (dist/clients/producer/producer.js:202).
//
// A transactional producer (a transactional id in the settings) sends through the transaction
// beginTransaction() gave; the client has no transaction timeout of its own and sends its
// `timeout` option as InitProducerId's (producer.js:550), so `timeout` is the transaction
// timeout here. As for KafkaJS, the runner awaits the transaction's sends before it ends it.

import { Producer, stringSerializers } from '@platformatic/kafka'
import { main, refusal } from './runner.mjs'

async function open (s) {
  let producer
  try {
    producer = new Producer({
      clientId: s.client_id,
      bootstrapBrokers: s.bootstrap,
      serializers: stringSerializers,
      idempotent: s.idempotent,
      retries: s.retries,
      retryDelay: s.retry_backoff_ms,
      requestTimeout: s.request_timeout_ms,
      timeout: s.request_timeout_ms,
      maxInflights: s.max_in_flight,
      autocreateTopics: false,
      strict: true,
      ...(s.transactional_id ? { transactionalId: s.transactional_id, timeout: s.transaction_timeout_ms } : {})
    })
  } catch (error) {
    throw refusal(error)
  }
  let transaction = null
  let sends = []
  const call = (target, method, ...args) =>
    new Promise((resolve, reject) => target[method](...args, (error, result) => error ? reject(error) : resolve(result)))
  return {
    // Callbacks, not promises: the promise form needs Promise.withResolvers (Node.js 22),
    // the callback form runs on Node.js 20 as well.
    send (topic, partition, value) {
      const sending = call(transaction ?? producer, 'send', { messages: [{ topic, partition, value }], acks: s.acks })
        .then((result) => {
          const mine = result?.offsets?.find((o) => o.topic === topic && o.partition === partition)
          return mine === undefined ? -1 : mine.offset
        })
      if (transaction !== null) sends.push(sending)
      return sending
    },
    async txn (action) {
      if (action === 'init') return // the client sends InitProducerId when a transaction begins
      if (action === 'begin') {
        transaction = await call(producer, 'beginTransaction', {})
        return
      }
      if (action !== 'commit' && action !== 'abort') throw new Error(`unknown transactional call ${action}`)
      if (transaction === null) throw new Error(`${action} with no transaction begun`)
      await Promise.allSettled(sends)
      sends = []
      // Kept until it ended: after a refused commit, the application aborts this same transaction.
      await call(transaction, action)
      transaction = null
    },
    close () {
      return new Promise((resolve, reject) => producer.close((error) => error ? reject(error) : resolve()))
    }
  }
}

main(open)
