print("stubserver: not yet")
