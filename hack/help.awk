# make help: each "target: ... ## description" line of the Makefile, its
# $(VARIABLE)s replaced by their values (vals: "NAME=value; ..."; an
# empty one shows as <NAME>).
BEGIN {
	FS = ":.*## "
	n = split(vals, kv, ";")
	for (i = 1; i <= n; i++) {
		j = index(kv[i], "=")
		if (j < 2) continue
		name = substr(kv[i], 1, j - 1)
		gsub(/^ +/, "", name)
		val[name] = substr(kv[i], j + 1)
	}
}
/^[a-zA-Z0-9_-]+:.*## / {
	d = $2
	for (k in val) {
		ref = "$(" k ")"
		v = val[k] == "" ? "<" k ">" : val[k]
		while ((i = index(d, ref)) > 0) d = substr(d, 1, i - 1) v substr(d, i + length(ref))
	}
	printf "  %-14s %s\n", $1, d
}
