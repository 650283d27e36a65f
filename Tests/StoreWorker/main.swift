#if !SQLite
print("sm-store-worker needs the SQLite trait")
#endif
