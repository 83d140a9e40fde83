"""pytest-sqs-sim: a `sqs_sim` fixture running `sqs-sim serve`, a local SQS whose clock a test
drives (`sqs_sim.advance(30)` instead of `time.sleep(30)`)."""

from .server import Server, SqsSim, SqsSimError, find_binary

__all__ = ["Server", "SqsSim", "SqsSimError", "find_binary"]
