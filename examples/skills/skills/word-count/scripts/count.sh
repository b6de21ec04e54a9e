# Called as: count.sh --file <name>
wc -w < "$2" | tr -d ' '
