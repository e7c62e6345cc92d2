// @platformatic/kafka's Producer (pinned in package.json) as a producer under test.
//
// Each record is its own producer.send() call, not awaited, as an application
// that hands records over without waiting does; completions are reported as
// they settle. The settings arrive mapped from Java names by
// adapters/node/producers.py. The acks go with each send: the Producer's own
// acks option is not read by send() (dist/clients/producer/producer.js:202).

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
      strict: true
    })
  } catch (error) {
    throw refusal(error)
  }
  return {
    // Callbacks, not promises: the promise form needs Promise.withResolvers (Node.js 22),
    // the callback form runs on Node.js 20 as well.
    send (topic, partition, value) {
      return new Promise((resolve, reject) => {
        producer.send({ messages: [{ topic, partition, value }], acks: s.acks }, (error, result) => {
          if (error) return reject(error)
          const mine = result?.offsets?.find((o) => o.topic === topic && o.partition === partition)
          resolve(mine === undefined ? -1 : mine.offset)
        })
      })
    },
    close () {
      return new Promise((resolve, reject) => producer.close((error) => error ? reject(error) : resolve()))
    }
  }
}

main(open)
