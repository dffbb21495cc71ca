# complete.zsh DIR LINE...: completes each LINE in an interactive zsh
# (zsh -f -i under zpty, compinit run with DIR first in fpath) and prints
# "== LINE" then the candidates, one a line.  Before them, "comps" and the
# completion function compinit gave each of fhsum and its links, and
# "loaded" once _fhsum's file loads (autoload +X).  Candidates are the
# words the completion functions hand compadd that match the line,
# caught by a compadd wrapped in the shell under test.  Run by zsh.sh.
# Exit 1 when the shell under test stops answering, 77 with no zpty.
zmodload zsh/zpty 2>/dev/null || { print "SKIP: no zsh/zpty module"; exit 77; }
zmodload zsh/zselect || exit 1
dir=$1
shift
out=$(mktemp) || exit 1
trap 'rm -f $out; zpty -d z 2>/dev/null' EXIT

zpty z 'TERM=vt100 zsh -f -i' || exit 1
zpty -w z "PS1='' PS2='' fpath=(${(q)dir} \$fpath)"
zpty -w z 'autoload -U compinit && compinit -u -D'
zpty -w z "compadd() {
  local -a m
  (( \${@[(I)-[OAD]*]} )) && { builtin compadd \"\$@\"; return; }
  builtin compadd -O m \"\$@\"
  (( \$#m )) && print -rl -- \$m >>${(q)out}
  builtin compadd \"\$@\"
}"
# A listing too long for LISTMAX would ask before it shows, and take the
# next key for its answer.
# The line is killed with ^X^K, not ^U: between a command's end and zle's
# start the pty is in cooked mode, where the kernel's line discipline
# takes ^U (VKILL) itself and erases what was typed so far, the whole
# case with it.  No byte sent here is special to a cooked tty.
zpty -w z "bindkey '^I' complete-word '^X^K' kill-whole-line; LISTMAX=100000"

# Waits for the shell under test to print "N+1000 done" (only its output
# holds that: the line it echoes says N + 1000), which it does once it
# has handled all the input before it.  What it prints is gathered until
# the mark is whole, however the pty splits it into reads, so that a slow
# machine only makes the wait longer; 120 s without the mark is a shell
# that stopped answering.
n=0
settle() {
  local chunk got= start=$SECONDS
  (( n++ ))
  zpty -w z "print \$(( $n + 1000 )) done"
  while (( SECONDS - start < 120 )); do
    if zpty -r -t z chunk; then
      got+=$chunk
      [[ $got == *"$(( n + 1000 )) done"* ]] && return 0
    else
      zselect -t 1
    fi
  done
  print "FAIL: the zsh under test stopped answering"
  exit 1
}

zpty -w z "print -r -- comps \$_comps[fhsum] \$_comps[sha3-224sum] \$_comps[sha3-256sum] \$_comps[sha3-384sum] \$_comps[sha3-512sum] >>${(q)out}"
zpty -w z "autoload +X _fhsum && (( \$+functions[_fhsum] )) && print loaded >>${(q)out}"
settle
for line; do
  print -r -- "== $line" >>$out
  zpty -w -n z "$line"$'\t'
  zpty -w -n z $'\C-x\C-k' # kill the line
  settle
done
cat $out
