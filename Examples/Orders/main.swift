#if !SQLite
print("Orders needs the SQLite trait: swift run --traits SQLite Orders")
#endif
