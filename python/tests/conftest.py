# The plugin's tests run inner pytest sessions (pytester) next to direct uses of the fixture.
# Both find sqs-sim as users do: $SQS_SIM_BIN or PATH (./check sets SQS_SIM_BIN).
pytest_plugins = ["pytester"]
