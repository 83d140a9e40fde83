#!/usr/bin/env bash
# AWS CLI v1 against `sqs-sim serve`: queues (standard, FIFO, with a RedrivePolicy), messages,
# batches, visibility, a long poll, a DLQ move, a move task, typed errors, and the clock API
# making a visibility timeout pass without sleeping.
#
#   awscli_client.sh ENDPOINT      (a freshly started server, account 000000000000; `aws` on PATH)
#
# One line per test, then `N passed, N failed`; exits 1 if any failed.
set -uo pipefail
E=$1
export AWS_ACCESS_KEY_ID=any AWS_SECRET_ACCESS_KEY=any AWS_DEFAULT_REGION=us-east-1 AWS_MAX_ATTEMPTS=1
passed=0 failed=0

sqs() { aws --endpoint-url "$E" --output json sqs "$@"; }
clock() { curl -sf -X POST -H 'Content-Type: application/json' "$E/_sqs-sim/clock" -d "$1" >/dev/null; }
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
# expect_error CODE CMD...: CMD fails and its error names CODE.
expect_error() {
  local code=$1 out
  shift
  if out="$("$@" 2>&1)"; then echo "expected $code, got success: $out"; return 1; fi
  grep -q "($code)" <<<"$out" || { echo "expected $code, got: $out"; return 1; }
}
check() { # NAME FUNCTION
  local out
  if out="$("$2" 2>&1)"; then echo "ok   awscli $1"; passed=$((passed + 1))
  else echo "FAIL awscli $1"; echo "$out" | sed 's/^/    /'; failed=$((failed + 1)); fi
}

queues() {
  local q f d arn src
  q="$(sqs create-queue --queue-name cli | json 'd["QueueUrl"]')" || return 1
  [ "$q" = "$E/000000000000/cli" ] || { echo "url $q"; return 1; }
  f="$(sqs create-queue --queue-name cli.fifo --attributes FifoQueue=true,ContentBasedDeduplication=true | json 'd["QueueUrl"]')" || return 1
  d="$(sqs create-queue --queue-name cli-dlq | json 'd["QueueUrl"]')" || return 1
  arn="$(sqs get-queue-attributes --queue-url "$d" --attribute-names QueueArn | json 'd["Attributes"]["QueueArn"]')" || return 1
  [ "$arn" = "arn:aws:sqs:us-east-1:000000000000:cli-dlq" ] || { echo "arn $arn"; return 1; }
  src="$(sqs create-queue --queue-name cli-src --attributes "{\"RedrivePolicy\": \"{\\\"deadLetterTargetArn\\\":\\\"$arn\\\",\\\"maxReceiveCount\\\":\\\"1\\\"}\"}" | json 'd["QueueUrl"]')" || return 1
  sqs list-queues | json 'sorted(d["QueueUrls"])' | grep -q "cli-src" || return 1
  sqs list-dead-letter-source-queues --queue-url "$d" | json 'd["queueUrls"]' | grep -q "$src"
}

messages() {
  local q out rh
  q="$E/000000000000/cli"
  out="$(sqs send-message --queue-url "$q" --message-body 'héllo wörld' \
    --message-attributes '{"k": {"DataType": "String", "StringValue": "v"}}')" || return 1
  [ "$(json 'd["MD5OfMessageBody"]' <<<"$out")" = "$(printf 'héllo wörld' | md5sum | cut -d' ' -f1)" ] || { echo "md5 $out"; return 1; }
  out="$(sqs receive-message --queue-url "$q" --message-attribute-names All)" || return 1
  [ "$(json 'd["Messages"][0]["MessageAttributes"]["k"]["StringValue"]' <<<"$out")" = v ] || { echo "$out"; return 1; }
  rh="$(json 'd["Messages"][0]["ReceiptHandle"]' <<<"$out")"
  sqs change-message-visibility --queue-url "$q" --receipt-handle "$rh" --visibility-timeout 100 || return 1
  sqs delete-message --queue-url "$q" --receipt-handle "$rh" || return 1
  [ -z "$(sqs receive-message --queue-url "$q")" ] || { echo "queue not empty"; return 1; }
}

fifo_and_batches() {
  local f q out
  f="$E/000000000000/cli.fifo" q="$E/000000000000/cli"
  sqs send-message-batch --queue-url "$f" --entries Id=a,MessageBody=one,MessageGroupId=g Id=b,MessageBody=two,MessageGroupId=g >/dev/null || return 1
  out="$(sqs receive-message --queue-url "$f" --max-number-of-messages 10)" || return 1
  [ "$(json '[m["Body"] for m in d["Messages"]]' <<<"$out")" = "['one', 'two']" ] || { echo "$out"; return 1; }
  out="$(sqs delete-message-batch --queue-url "$f" --entries \
    "Id=a,ReceiptHandle=$(json 'd["Messages"][0]["ReceiptHandle"]' <<<"$out")" Id=bad,ReceiptHandle=garbage)" || return 1
  [ "$(json 'd["Failed"][0]["Code"]' <<<"$out")" = ReceiptHandleIsInvalid ] || { echo "$out"; return 1; }
  expect_error AWS.SimpleQueueService.BatchEntryIdsNotDistinct \
    sqs send-message-batch --queue-url "$q" --entries Id=x,MessageBody=1 Id=x,MessageBody=2
}

typed_errors() {
  expect_error AWS.SimpleQueueService.NonExistentQueue sqs get-queue-url --queue-name nope || return 1
  expect_error ReceiptHandleIsInvalid sqs delete-message --queue-url "$E/000000000000/cli" --receipt-handle garbage
}

clock_and_dlq() {
  local src d task out start
  src="$E/000000000000/cli-src" d="$E/000000000000/cli-dlq"
  clock '{"pause": true}'
  trap 'clock "{\"pause\": false}"' RETURN
  sqs send-message --queue-url "$src" --message-body poison >/dev/null || return 1
  sqs receive-message --queue-url "$src" --visibility-timeout 300 | grep -q poison || return 1
  clock '{"advance": 300}'
  [ -z "$(sqs receive-message --queue-url "$src")" ] || { echo "not moved"; return 1; }
  sqs receive-message --queue-url "$d" --visibility-timeout 0 | grep -q poison || { echo "not in the DLQ"; return 1; }
  task="$(sqs start-message-move-task --source-arn arn:aws:sqs:us-east-1:000000000000:cli-dlq | json 'd["TaskHandle"]')" || return 1
  [ -n "$task" ] || return 1
  clock '{"advance": 5}'
  sqs list-message-move-tasks --source-arn arn:aws:sqs:us-east-1:000000000000:cli-dlq | grep -q COMPLETED || return 1
  # A long poll, answered when the clock reaches its deadline rather than 20 s later.
  start=$SECONDS
  # (once the poll waits: the CLI takes a moment to start)
  (for _ in $(seq 100); do
     curl -sf "$E/_sqs-sim/state" | grep -Eq '"waiting_polls": *1' && break
     sleep 0.1
   done
   clock '{"advance": 20}') &
  out="$(sqs receive-message --queue-url "$d" --wait-time-seconds 20)" || return 1
  wait
  [ -z "$out" ] && [ $((SECONDS - start)) -lt 10 ] || { echo "long poll: $out after $((SECONDS - start)) s"; return 1; }
  sqs receive-message --queue-url "$src" | grep -q poison
}

check queues_of_each_kind queues
check send_receive_visibility_delete messages
check fifo_and_batches fifo_and_batches
check typed_errors typed_errors
check clock_long_poll_dlq_and_move_task clock_and_dlq
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
