#!/usr/bin/env bash
# Creates a standalone ActiveMQ Artemis broker instance for the exactly-once engine and its sample:
#   create-broker.sh <Artemis installation> <instance directory> <port> <user> <password> [max deliveries]
# The instance keeps its journal on disk (<instance>/data), so messages survive a kill -9 of the broker.
# It accepts core connections on 127.0.0.1:<port> only, with a login. The sample's queues deliver a
# message at most <max deliveries> times (default 10), then move it to LedgerCredits.Failed. Start it
# with <instance>/bin/artemis run (or artemis-service start).
#
# Keep <max deliveries> above exactlyonce.park-after-deliveries (default 5) by at least the sessions one
# server consumes a queue with (maxSession, ledger.consumers: 4): the engine parks a failing message
# itself, and the broker's limit is only the backstop. The margin is for a crash: Artemis closes a dead
# server's connections one at a time, and hands the message in flight to each of that server's sessions
# still open, one after another, counting a delivery every time.
set -euo pipefail
home=$1 instance=$2 port=$3 user=$4 password=$5 max_deliveries=${6:-10}

"$home/bin/artemis" create --silent --force --no-autotune --no-web \
    --user "$user" --password "$password" --require-login \
    --host 127.0.0.1 --default-port "$port" \
    --no-amqp-acceptor --no-mqtt-acceptor --no-stomp-acceptor --no-hornetq-acceptor \
    --queues LedgerCredits:anycast,LedgerCredits.Failed:anycast,LedgerAudit:anycast,LedgerCreditsAtLeastOnce:anycast,LedgerCreditsWithReceipts:anycast,LedgerReceipts:anycast \
    --addresses LedgerCreditEvents:multicast \
    "$instance" > /dev/null

# each sample queue: its redelivery limit, at once, then the sample's dead-letter queue
settings=""
for queue in LedgerCredits LedgerAudit LedgerCreditsAtLeastOnce LedgerCreditsWithReceipts LedgerReceipts; do
    settings+="         <address-setting match=\"$queue\">"
    settings+="<dead-letter-address>LedgerCredits.Failed</dead-letter-address>"
    settings+="<max-delivery-attempts>$max_deliveries</max-delivery-attempts>"
    settings+="<redelivery-delay>0</redelivery-delay></address-setting>\n"
done
sed -i "s|^ *</address-settings>|$settings      </address-settings>|" "$instance/etc/broker.xml"
