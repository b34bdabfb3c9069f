// Intentionally empty: the shims are static inline functions in CStubSystem.h.
