#!/usr/bin/env bash
# Creates a standalone ActiveMQ Artemis broker instance for the exactly-once engine and its sample:
#   create-broker.sh <Artemis installation> <instance directory> <port> <user> <password> [max deliveries]
#                    [queue or topic:<name> ...]
# The instance keeps its journal on disk (<instance>/data), so messages survive a kill -9 of the broker.
# It accepts core connections on 127.0.0.1:<port> only, with a login. The sample's queues deliver a
# message at most <max deliveries> times (default 10), then move it to LedgerCredits.Failed; so do the
# queues named after it, and each topic:<name> becomes a topic (the tests' harness adds its own). Start it
# with <instance>/bin/artemis run (or artemis-service start).
#
# Keep <max deliveries> above exactlyonce.park-after-deliveries (default 5) by at least the sessions one
# server consumes a queue with (maxSession, ledger.consumers: 4): the engine parks a failing message
# itself, and the broker's limit is only the backstop. The margin is for a crash: Artemis closes a dead
# server's connections one at a time, and hands the message in flight to each of that server's sessions
# still open, one after another, counting a delivery every time.
set -euo pipefail
home=$1 instance=$2 port=$3 user=$4 password=$5 max_deliveries=${6:-10}
shift $(( $# < 6 ? $# : 6 ))
queues=(LedgerCredits LedgerCreditsWithReceipts LedgerReceipts)
topics=()
for extra in "$@"; do
    if [[ $extra == topic:* ]]; then topics+=("${extra#topic:}"); else queues+=("$extra"); fi
done
anycast=LedgerCredits.Failed:anycast
for queue in "${queues[@]}"; do anycast+=",$queue:anycast"; done
addresses=""
for topic in "${topics[@]}"; do addresses+="${addresses:+,}$topic:multicast"; done

"$home/bin/artemis" create --silent --force --no-autotune --no-web \
    --user "$user" --password "$password" --require-login \
    --host 127.0.0.1 --default-port "$port" \
    --no-amqp-acceptor --no-mqtt-acceptor --no-stomp-acceptor --no-hornetq-acceptor \
    --queues "$anycast" ${addresses:+--addresses "$addresses"} \
    "$instance" > /dev/null

# each queue: its redelivery limit, at once, then the sample's dead-letter queue
settings=""
for queue in "${queues[@]}"; do
    settings+="         <address-setting match=\"$queue\">"
    settings+="<dead-letter-address>LedgerCredits.Failed</dead-letter-address>"
    settings+="<max-delivery-attempts>$max_deliveries</max-delivery-attempts>"
    settings+="<redelivery-delay>0</redelivery-delay></address-setting>\n"
done
sed -i "s|^ *</address-settings>|$settings      </address-settings>|" "$instance/etc/broker.xml"
