"""A plain Bulk CM reader, the kind an engineer writes with the standard library: the peer that
bench/network-import.mjs times the console's reader + mapper against (docs/engines/network.md).

xml.etree.ElementTree.iterparse over a 3GPP Bulk CM file (TS 32.615), every managed object kept as
a dict {dn, class, id, attributes} in one list. Attributes are the leaf texts under <attributes>,
structs flattened as `struct.field`, repeated names become lists. Ericsson's xn:VsDataContainer
takes its class from xn:vsDataType (`vsData` stripped); a container of its parent's own class is
that MO's vendor extension and is merged into it. Elements are cleared once read, as iterparse's
documentation advises, so the tree is not kept beside the dicts.

Usage: python3 bulkcm_etree.py [--events-only] FILE  ->  one JSON line {"mos": N, "seconds": parse time}
--events-only walks iterparse's events and clears the elements, nothing else: the floor under any
xml.etree script, printed beside the peer so its time can be judged.
"""

import json
import sys
import time
import xml.etree.ElementTree as ET


def local(tag):
    return tag.rpartition("}")[2]


def add(attrs, key, value):
    prev = attrs.get(key)
    if prev is None:
        attrs[key] = value
    elif isinstance(prev, list):
        prev.append(value)
    else:
        attrs[key] = [prev, value]


def fields(elem, attrs, prefix, mo):
    """The leaves under an <attributes> element (or a struct inside it) into `attrs`."""
    for child in elem:
        name = local(child.tag)
        if prefix == "" and mo["container"] and name.startswith("vsData") and name != "vsDataType" and name != "vsDataFormatVersion":
            # Ericsson's <es:vsDataEUtranCellFDD> wraps a container's attributes.
            fields(child, attrs, "", mo)
        elif len(child):
            fields(child, attrs, prefix + name + ".", mo)
        elif prefix == "" and name == "vsDataType":
            vs = (child.text or "").strip()
            vs = vs[6:] if vs.startswith("vsData") else vs
            mo["class"] = vs[:1].upper() + vs[1:]
        elif prefix == "" and name == "vsDataFormatVersion":
            continue
        else:
            add(attrs, prefix + name, (child.text or "").strip())


def read(path):
    mos = []
    # The open MOs; a merged vendor extension stands for its parent (children extend the parent's DN).
    stack = []
    in_config = False
    in_attributes = 0
    for event, elem in ET.iterparse(path, events=("start", "end")):
        if in_attributes:
            in_attributes += 1 if event == "start" else -1
            if in_attributes == 0:
                mo = stack[-1]
                fields(elem, mo["attributes"], "", mo)
                elem.clear()
                if mo["container"] and mo["dn"] is None:
                    place_container(mo, mos, stack)
            continue
        name = local(elem.tag)
        if event == "start":
            if name == "configData":
                in_config = True
            elif not in_config:
                continue
            elif name == "attributes" and stack:
                in_attributes = 1
            elif "id" in elem.attrib:
                container = name.lower() == "vsdatacontainer"
                mo = {
                    "dn": None,
                    "class": None if container else name[:1].upper() + name[1:],
                    "id": elem.attrib["id"].strip(),
                    "attributes": {},
                    "parent": stack[-1] if stack else None,
                    "container": container,
                }
                if not container:
                    place(mo)
                mos.append(mo)
                stack.append(mo)
        elif name == "configData":
            in_config = False
        elif in_config and "id" in elem.attrib and name != "attributes":
            stack.pop()
            elem.clear()
    for mo in mos:
        del mo["parent"], mo["container"]
    return mos


def place_container(mo, mos, stack):
    owner = mo["parent"]
    # Only SubNetworks nest in their own class: one of another id is a child.
    if owner is not None and owner["class"] == mo["class"] and (owner["id"] == mo["id"] or mo["class"] != "SubNetwork"):
        # The parent's vendor extension (Ericsson's MeContext + vsDataMeContext): one MO, not two.
        mos.pop()  # `mo` itself: a container's attributes come before any child MO
        for k, v in mo["attributes"].items():
            for one in v if isinstance(v, list) else [v]:
                add(owner["attributes"], k, one)
        stack[-1] = owner
    else:
        place(mo)


def place(mo):
    owner = mo["parent"]
    own = f'{mo["class"]}={mo["id"]}'
    mo["dn"] = f'{owner["dn"]},{own}' if owner is not None else own


def events_only(path):
    for event, elem in ET.iterparse(path, events=("start", "end")):
        if event == "end":
            elem.clear()
    return []


if __name__ == "__main__":
    only_events = sys.argv[1] == "--events-only"
    started = time.perf_counter()
    result = (events_only if only_events else read)(sys.argv[-1])
    seconds = time.perf_counter() - started
    print(json.dumps({"mos": len(result), "seconds": seconds}))
