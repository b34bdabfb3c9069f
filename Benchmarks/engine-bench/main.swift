print("engine-bench: not yet")
