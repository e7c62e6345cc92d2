// KafkaJS's producer (kafkajs, pinned in package.json) as a producer under test.
//
// Each record is its own producer.send() call, not awaited, as an application
// that hands records over without waiting does; completions are reported as
// they settle. The settings arrive mapped from Java names by
// adapters/node/producers.py; KafkaJS's own logging goes to stderr.

import kafkajs from 'kafkajs'
import { main, refusal } from './runner.mjs'

const { Kafka, Partitioners, logLevel } = kafkajs

function toStderr () {
  return ({ namespace, level, log }) => {
    const { message, ...extra } = log
    let detail
    try {
      detail = JSON.stringify(extra)
    } catch {
      detail = '(unprintable details)'
    }
    process.stderr.write(`kafkajs ${namespace} [${level}] ${message} ${detail}\n`)
  }
}

async function open (s) {
  const retry = {
    retries: s.retries,
    initialRetryTime: s.retry_backoff_ms,
    maxRetryTime: s.max_retry_ms,
    factor: 0, // no random jitter: the same trace waits the same way on every run
    multiplier: 1
  }
  let producer
  try {
    const kafka = new Kafka({
      clientId: s.client_id,
      brokers: s.bootstrap,
      requestTimeout: s.request_timeout_ms,
      connectionTimeout: 1000,
      retry,
      logLevel: logLevel.WARN,
      logCreator: toStderr
    })
    producer = kafka.producer({
      idempotent: s.idempotent,
      maxInFlightRequests: s.max_in_flight,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry,
      ...(s.transactional_id ? { transactionalId: s.transactional_id, transactionTimeout: s.transaction_timeout_ms } : {})
    })
  } catch (error) {
    throw refusal(error)
  }
  await producer.connect()
  // A transactional producer sends through the transaction it began (KafkaJS's producer.transaction());
  // connect() initialised its transactional id.
  // KafkaJS's commit does not wait for the transaction's sends, and its documentation has the
  // application await them first: so does this runner, as such an application would.
  let transaction = null
  let sends = []
  return {
    async send (topic, partition, value) {
      const sending = (transaction ?? producer).send({
        topic,
        acks: s.acks,
        timeout: s.request_timeout_ms,
        messages: [{ partition, value }]
      })
      if (transaction !== null) sends.push(sending)
      const answers = await sending
      const mine = answers.find((a) => a.topicName === topic && a.partition === partition) ?? answers[0]
      return mine === undefined || mine.baseOffset === undefined ? -1 : mine.baseOffset
    },
    async txn (action) {
      if (action === 'init') return
      if (action === 'begin') {
        transaction = await producer.transaction()
        return
      }
      if (action !== 'commit' && action !== 'abort') throw new Error(`unknown transactional call ${action}`)
      if (transaction === null) throw new Error(`${action} with no transaction begun`)
      await Promise.allSettled(sends)
      sends = []
      // Kept until it ended: after a refused commit, the application aborts this same transaction.
      await (action === 'commit' ? transaction.commit() : transaction.abort())
      transaction = null
    },
    close () {
      return producer.disconnect()
    }
  }
}

main(open)
